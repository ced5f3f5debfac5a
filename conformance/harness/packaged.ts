// Whether this copy runs as an installed package: `npm pack` builds the runner, the suites and the reference
// servers to plain JavaScript first (tools/pack/build.ts writes dist/built.json last), so an installed copy
// runs no bundler and no TypeScript loader. A checkout without that file builds what it runs, as it goes.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from './project-root.ts';

export const BUILT_MARKER = join(PROJECT_ROOT, 'dist', 'built.json');
export const PACKAGED = existsSync(BUILT_MARKER);
/** Where the suites' test files are, built (`conformance/static/cgi.test.ts` → `dist/conformance/static/cgi.test.mjs`). */
export const builtSuite = (file: string): string => join(PROJECT_ROOT, 'dist', file.replace(/\.ts$/, '.mjs'));
