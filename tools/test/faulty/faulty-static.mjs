#!/usr/bin/env node
// Runs faulty-static.ts through tsx from any working directory.
import { register } from 'tsx/esm/api';

register();
await import('./faulty-static.ts');
