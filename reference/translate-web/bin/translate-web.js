#!/usr/bin/env node
import { runBuiltOrSource } from '../../shared/bin-entry.js';

await runBuiltOrSource('.cache/reference/translate-web/main.mjs', new URL('../main.ts', import.meta.url).href);
