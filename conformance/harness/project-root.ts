// The project's root folder: the nearest folder above this module holding package.json. Walked up to, not
// computed from a fixed depth, because the runner runs the suites bundled (.cache/conformance/…).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'conformance'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no project root above ${from}`);
  }
}

export const PROJECT_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));
