import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { PROJECT_ROOT } from '../../conformance/harness/project-root.ts';
import { missingOptionalPackages, optionalMissingLines } from '../setup/optional-packages.ts';

test('an optional dependency Node cannot resolve is named, with the line that adds it; a present one is not', (t) => {
  // Below the project, so that its node_modules are where Node looks.
  const root = join(PROJECT_ROOT, '.cache', `optional-packages-${process.pid}`);
  mkdirSync(root, { recursive: true });
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ optionalDependencies: { ava: '7.0.0', 'no-such-package-7f3a': '1.2.3' } }));
  const missing = missingOptionalPackages(root);
  t.deepEqual(missing.map((p) => p.name), ['no-such-package-7f3a']);
  t.deepEqual(optionalMissingLines(missing), ['missing npm package no-such-package-7f3a (optional): an optional part; add it with: npm install no-such-package-7f3a@1.2.3 --ignore-scripts']);
  t.deepEqual(missingOptionalPackages(), [], 'this checkout has every optional dependency');
});
