#!/usr/bin/env node
// Command shim for `recipes`: registers the tsx loader, then runs the TypeScript entry.
import { register } from 'tsx/esm/api';

register();
await import('../main.ts');
