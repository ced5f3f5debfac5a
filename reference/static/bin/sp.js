#!/usr/bin/env node
// `sp`: the short alias of `static-proxy`, the same program under a shorter name.
import './static-proxy.js';
