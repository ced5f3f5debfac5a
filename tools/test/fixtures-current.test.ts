// CI gate: the golden fixtures of the translate suite are what the reference answers today, so a change to
// the reference that alters them fails here until `npx tsx tools/fixtures/translate.ts` rewrites them.
import test from 'ava';
import { runScript } from './run-cli.ts';

test('fixtures/translate are current (npx tsx tools/fixtures/translate.ts --check)', async (t) => {
  const result = await runScript('tools/fixtures/translate.ts', ['--check']);
  t.is(result.code, 0, `${result.stdout}${result.stderr}`);
  t.regex(result.stdout, /fixture files are current/);
});
