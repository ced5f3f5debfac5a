#!/usr/bin/env node
// Runs the MCP tool server for the translation service from source (TypeScript through tsx).
import { register } from 'tsx/esm/api';

register();
await import('../main.ts');
