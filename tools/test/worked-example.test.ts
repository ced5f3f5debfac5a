// The README's worked example runs as written: its description file and known-failing list are taken from the
// README itself, its two runs give the exit codes and the counts it shows.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';
import { runTool, tempDir } from './run-cli.ts';

const README = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
const example = README.slice(README.indexOf('### A worked example'), README.indexOf('## Running a reference server'));

/** The first fenced block of `lang` after `after` in the example, without its indentation. */
function block(lang: string, after: string): string {
  const from = example.indexOf(after);
  const match = new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\\n\\s*\`\`\``).exec(example.slice(from));
  if (from < 0 || !match) throw new Error(`README worked example: no ${lang} block after "${after}"`);
  return match[1]!.replace(/^ {3}/gm, '');
}

test('the README worked example gives what it shows', async (t) => {
  const dir = tempDir();
  writeFileSync(join(dir, 'other.json'), block('json', '`other.json`'));
  writeFileSync(join(dir, 'known.yaml'), block('yaml', '`known.yaml`'));
  const command = block('sh', 'Run the surface');
  const args = [
    '--surface',
    'static',
    '--target',
    /--target '([^']+)'/.exec(command)![1]!,
    '--describe',
    `static=${join(dir, 'other.json')}`,
    ...[...command.matchAll(/--only '([^']+)'/g)].flatMap((m) => ['--only', m[1]!]),
  ];
  const first = await runTool('conform', [...args, '--report-dir', join(dir, 'first')]);
  t.is(first.code, 1, first.stderr);
  t.regex(first.stdout, /^FAIL static\/health\/body-status\/status-is-ok-string$/m);
  // The summary row shown: as many failures as the README says (the other counts follow the suite's size).
  const shownRow = block('', 'the summary gives the standing').split('\n')[1]!.trim().split(/\s+/);
  t.regex(first.stdout, new RegExp(`^static +\\d+ +${shownRow[2]} +${shownRow[3]} `, 'm'));
  const second = await runTool('conform', [...args, '--known-failing', join(dir, 'known.yaml'), '--report-dir', join(dir, 'second')]);
  t.is(second.code, 0, second.stdout.slice(-1500));
  const shown = /\(`passed \d+, (failed \d+, error \d+), informational \d+, (expected-fail \d+)`\)/.exec(example)!;
  t.true(second.stdout.includes(shown[1]!) && second.stdout.includes(shown[2]!), second.stdout.slice(-600));
});
