// ava settings for the suites as the runner runs them: bundled to plain JavaScript first
// (tools/conform/compile-suites.ts), so no TypeScript loader; otherwise as ava.config.mjs.
import base from './ava.config.mjs';

export default {
  ...base,
  files: ['.cache/conformance/**/*.test.mjs'],
  extensions: ['mjs'],
  nodeArguments: ['--enable-source-maps'],
};
