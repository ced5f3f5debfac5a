// The command line: --help, --init and the short alias (--cluster is cluster.test.ts). Interactive --init is
// driven on a pseudo-terminal, answering each question as it appears: a command may read its answers from a
// terminal only, and the questions' wording and order are its own (static/cli/init-questions).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { check } from '../harness/index.ts';
import { converse, type Exit, runToExit, startSite } from './site.ts';

const launch = { needs: ['launch'] };
const FLAGS = ['--config', '--init', '--cluster', '--cluster-config'];
const MANY_BLANKS = '\n'.repeat(20);
/** The port answered wherever a question has the word "port" (not inside another word: support, import,
 * report): it must show up in the file written. */
const PORT_ANSWER = '8123';
const PORT_QUESTION: [string, string, string] = ['\\bports?\\b', 'i', PORT_ANSWER];

check('static/cli/help/prints-usage-without-serving', launch, async (t, c) => {
  const exit = await runToExit(c, { config: {}, args: ['--help'] });
  if (!t.not(exit.code, null, `--help did not end: ${exit.stderr.split('\n')[0]}`)) return;
  const text = exit.stdout + exit.stderr;
  for (const flag of FLAGS) t.true(text.includes(flag), `usage lacks ${flag}:\n${text}`);
});

check('static/cli/help-output-and-exit/stdout-and-short-flag', launch, async (t, c) => {
  const long = await runToExit(c, { config: {}, args: ['--help'] });
  const short = await runToExit(c, { config: {}, args: ['-h'] });
  t.true(long.stdout.includes('--config'));
  t.is(long.code, 0);
  t.is(short.code, 0);
  t.is(short.stdout, long.stdout);
});

check('static/cli/unknown-flag/usage-error-exit-2', launch, async (t, c) => {
  const exit = await runToExit(c, { config: {}, args: ['--no-such-flag'] });
  t.is(exit.code, 2);
  t.regex(exit.stderr, /no-such-flag/);
});

/** Files of `dir` (not in folders) holding JSON, with their text. */
function jsonFiles(dir: string): { name: string; text: string }[] {
  const found: { name: string; text: string }[] = [];
  for (const name of readdirSync(dir)) {
    if (!statSync(join(dir, name)).isFile()) continue;
    const text = readFileSync(join(dir, name), 'utf8');
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value === 'object' && value !== null) found.push({ name, text });
    } catch {
      // not a config file
    }
  }
  return found;
}

const transcript = (exit: Exit): string => `--- terminal ---\n${exit.stdout}\n--- stderr ---\n${exit.stderr}`;

check('static/cli/init-creates-config/answers-become-config', launch, async (t, c) => {
  const talk = await converse(c, { config: null, args: ['--init'], answers: [PORT_QUESTION] });
  if (!t.true(talk.questions.length > 0, `--init asked no question on a terminal\n${transcript(talk)}`)) return;
  const written = jsonFiles(talk.dir);
  if (!t.true(written.length > 0, `no configuration file was written\n${transcript(talk)}`)) return;
  if (talk.questions.some((q) => q.answered === PORT_ANSWER)) {
    t.true(
      written.some((f) => new RegExp(`\\b${PORT_ANSWER}\\b`).test(f.text)),
      `a port question was answered ${PORT_ANSWER}, and the file written does not hold it:\n${written.map((f) => `${f.name}: ${f.text}`).join('\n')}`,
    );
  }
});

check('static/cli/init-asks-before-overwrite/no-keeps-file', launch, async (t, c) => {
  const original = '{"folders": "keep-me"}\n';
  const talk = await converse(c, { config: null, files: { 'server-config.json': original }, args: ['--init'], otherwise: 'n', maxAnswers: 10 });
  t.true(talk.questions.length > 0, `no question was asked\n${transcript(talk)}`);
  t.is(readFileSync(join(talk.dir, 'server-config.json'), 'utf8'), original, `replaced although every answer was "n"\n${transcript(talk)}`);
});

// The reference reads its answers as lines from stdin, piped or not.
check('static/cli/init-questions/answers-become-config', launch, async (t, c) => {
  const exit = await runToExit(c, {
    config: null,
    args: ['--init'],
    stdin: '8123\nsite\n/api http://127.0.0.1:3000\nn\n',
  });
  t.is(exit.code, 0, exit.stderr);
  t.deepEqual(JSON.parse(readFileSync(join(exit.dir, 'server-config.json'), 'utf8')), {
    port: 8123,
    folders: 'site',
    proxy: { '/api': 'http://127.0.0.1:3000' },
  });
});

check('static/cli/init-overwrite-prompt/yes-replaces', launch, async (t, c) => {
  const exit = await runToExit(c, { config: null, files: { 'server-config.json': '{"folders": "old"}' }, args: ['--init'], stdin: `y\n${MANY_BLANKS}` });
  const written = JSON.parse(readFileSync(join(exit.dir, 'server-config.json'), 'utf8')) as { folders?: unknown };
  t.not(written.folders, 'old');
});

/** What a --help run shows, told apart from the command's name: the options named on each stream. */
function helpShape(exit: Exit) {
  const named = (text: string) => [...FLAGS, '--help'].filter((f) => text.includes(f));
  return { code: exit.code, stdout: named(exit.stdout), stderr: named(exit.stderr) };
}

check('static/cli/short-alias/same-help-and-serving', { needs: ['launch', 'alias'] }, async (t, c) => {
  const main = await runToExit(c, { config: {}, args: ['--help'] });
  const alias = await runToExit(c, { config: {}, args: ['--help'], command: c.target.aliasCommand });
  t.deepEqual(helpShape(alias), helpShape(main), `alias:\n${alias.stdout}${alias.stderr}\nmain:\n${main.stdout}${main.stderr}`);
  const site = await startSite(c, { config: { folders: 'p' }, files: { 'p/x.txt': 'ALIAS' }, command: c.target.aliasCommand });
  t.is((await site.http.get('/x.txt')).text, 'ALIAS');
});
