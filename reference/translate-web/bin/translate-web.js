#!/usr/bin/env node
// Runs the reference web gateway from source (TypeScript through tsx).
import { register } from 'tsx/esm/api';

register();
await import('../main.ts');
