// A reference entry's `backend` (conformance/reference-targets.json): resolved into the target with its own
// bundle built, and kept for a target given on the command line, so that `--surface translate-tools` alone,
// with the reference or with another tool server, has the translation service it needs.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';
import { loadReferenceTargets, referenceBackend } from '../../conformance/harness/reference-targets.ts';
import { resolveTargets } from '../conform/suites.ts';

const entries = JSON.parse(readFileSync(join(PROJECT_ROOT, 'conformance/reference-targets.json'), 'utf8')) as Record<
  string,
  { command: string; backend?: string; bundle?: { outfile: string } }
>;

test.serial('the translate-tools reference runs beside the translate reference, both bundled', (t) => {
  const { 'translate-tools': tools, ...others } = loadReferenceTargets(['translate-tools']);
  t.deepEqual(Object.keys(others), [], 'only the selected surface is a target');
  t.is(entries['translate-tools']!.backend, 'translate');
  t.is(tools!.backend?.command, entries.translate!.command);
  t.truthy(tools!.backend?.description, 'the backend keeps its description');
  for (const name of ['translate-tools', 'translate']) t.true(existsSync(join(PROJECT_ROOT, entries[name]!.bundle!.outfile)), name);
});

test.serial('a tool server given with --target gets the same backend', (t) => {
  const suites = [{ surface: 'translate-tools' as const, files: [] }];
  const targets = resolveTargets(suites, [{ surface: 'translate-tools', kind: 'cmd', value: 'my-tools --stdio' }]);
  t.is(targets['translate-tools']!.command, 'my-tools --stdio');
  t.deepEqual(targets['translate-tools']!.backend, referenceBackend('translate-tools'));
  t.is(referenceBackend('static'), undefined);
});
