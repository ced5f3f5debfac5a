#!/usr/bin/env node
// The `conform` command: the runner (built in an installed package, from its TypeScript in a checkout).
import { runBuiltOrSource } from '../../../reference/shared/bin-entry.js';

await runBuiltOrSource('dist/conform.mjs', new URL('../main.ts', import.meta.url).href);
