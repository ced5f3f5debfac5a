// The fixtures command as a user runs it (tools/fixtures/main.ts, `npm run fixtures`): --help and usage errors
// touch nothing; --out writes the translate fixtures, inputs and all, byte for byte as the checkout holds them;
// --check finds the checkout current; a SIGTERM stops the reference servers it started and leaves no temporary
// folder.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';
import { runScript, tempDir } from './run-cli.ts';

const COMMAND = 'tools/fixtures/main.ts';

/** Every file under `dir` (relative path → SHA-256). */
function listing(dir: string): Record<string, string> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile());
  const entries = files.map((d) => join(d.parentPath, d.name)).map((path) => [path.slice(dir.length + 1), createHash('sha256').update(readFileSync(path)).digest('hex')]);
  return Object.fromEntries(entries.sort(([a], [b]) => a!.localeCompare(b!)));
}

/** What a run left in its own TMPDIR, tsx's compile cache aside (the loader's, kept on purpose). */
const leftIn = (tmp: string): string[] => readdirSync(tmp).filter((name) => !name.startsWith('tsx-'));

test('--help prints the usage, exits 0 and makes nothing', async (t) => {
  const tmp = tempDir();
  const out = join(tmp, 'new');
  const result = await runScript(COMMAND, ['--help', '--out', out, '--surface', 'translate'], { TMPDIR: tmp });
  t.is(result.code, 0, result.stderr);
  t.regex(result.stdout, /^Usage: npm run fixtures -- /);
  t.regex(result.stdout, /recipes +its suite uses no golden data/);
  t.false(existsSync(out), 'the --out folder was made');
  t.deepEqual(leftIn(tmp), []);
});

for (const [args, said] of [
  [['--surface', 'nope'], /^error: --surface nope: unknown surface \(known: translate, .*\)/],
  [['--frobnicate'], /^error: Unknown option '--frobnicate'/],
  [['--out'], /^error: Option '--out <value>' argument missing/],
  [['stray'], /^error: Unexpected argument 'stray'/],
] as const) {
  test(`usage error: ${args.join(' ')} exits 2 with one line`, async (t) => {
    const tmp = tempDir();
    const result = await runScript(COMMAND, ['--out', join(tmp, 'new'), ...args], { TMPDIR: tmp });
    t.is(result.code, 2);
    t.regex(result.stderr, said);
    t.is(result.stderr.trim().split('\n').length, 1, result.stderr);
    t.is(result.stdout, '');
    t.false(existsSync(join(tmp, 'new')), 'the --out folder was made');
  });
}

test('--out DIR (from the caller\'s folder) --surface translate writes what fixtures/translate holds, byte for byte', async (t) => {
  const caller = tempDir();
  const result = await runScript(COMMAND, ['--out', 'my fixtures', '--surface', 'translate'], { INIT_CWD: caller, TMPDIR: caller });
  t.is(result.code, 0, result.stderr);
  const out = join(caller, 'my fixtures');
  t.deepEqual(readdirSync(out), ['translate'], 'another surface was written');
  t.deepEqual(listing(join(out, 'translate')), listing(join(PROJECT_ROOT, 'fixtures', 'translate')));
  t.regex(result.stdout, /^translate: wrote my fixtures\/translate\/speech\/golden\.json$/m, 'paths as the caller reaches them');
  t.deepEqual(leftIn(caller), ['my fixtures']);
});

test('--check finds the checkout current and says which surfaces have no golden data', async (t) => {
  const tmp = tempDir();
  const result = await runScript(COMMAND, ['--check'], { TMPDIR: tmp });
  t.is(result.code, 0, `${result.stdout}${result.stderr}`);
  t.regex(result.stdout, /^translate: 37 fixture files are current \(9 inputs, 28 generated\)$/m);
  t.notRegex(result.stdout, /differs|stale/);
  for (const surface of ['translate-tools', 'translate-web', 'gateway', 'static', 'recipes']) {
    t.regex(result.stdout, new RegExp(`^${surface}: its suite uses no golden data \\(`, 'm'));
  }
  // The recordings the recognizer mishears are named, with both texts.
  t.regex(result.stdout, /^translate: {3}counting\.8k-u8-mono\.wav: spoken "Two three four five six\.", pocketsphinx en-us heard "[^"]*"$/m);
  t.deepEqual(leftIn(tmp), []);
});

test('SIGTERM stops the reference servers it started and removes its temporary folder', async (t) => {
  const tmp = tempDir();
  const child = spawn(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, COMMAND), '--surface', 'translate', '--check'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, TMPDIR: tmp },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  let stderr = '';
  await new Promise<void>((resolve) => {
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      if (/reference servers started/.test(stderr)) resolve();
    });
    child.once('close', () => resolve());
  });
  const servers = spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(child.pid)], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter((line) => line.includes('reference/translate/main.ts'))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
  t.teardown(() => {
    for (const pid of servers) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone, as it should be
      }
    }
  });
  t.is(servers.length, 2, stderr);
  child.kill('SIGTERM');
  t.is(await closed, 143, stderr);
  for (const pid of servers) t.throws(() => process.kill(pid, 0), { code: 'ESRCH' }, `reference server ${pid} still running`);
  // The run's folder, and those the servers make for a recognition or a voice.
  t.deepEqual(leftIn(tmp), []);
});
