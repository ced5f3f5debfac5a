#!/usr/bin/env node
// Command shim for `static-proxy` and `sp`.
import { runBuiltOrSource } from '../../shared/bin-entry.js';

await runBuiltOrSource('.cache/reference/static.mjs', new URL('../main.ts', import.meta.url).href);
