// Every server command of the package behaves as people expect of a command-line tool, run as a package user
// runs it (node <bin file>) from a fresh working folder with a minimal environment: --help and -h print the
// usage and touch nothing; an unknown flag is one line on stderr and exit 2; a port already taken is one line
// naming it and exit 1, no stack; the static server's access log has colours on a terminal only.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';

const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };

/** How a command is told to serve on 127.0.0.1:`port`; files it needs are written to `dir`, outside the working
 * folder. */
type Serve = (port: number, dir: string) => { args: string[]; env: Record<string, string> };

interface BinCase {
  bin: string;
  /** Undefined for a command that opens no port. */
  serve?: Serve;
  /** Variables a start needs and --help must not. */
  secrets?: string[];
}

const staticServe: Serve = (port, dir) => {
  writeFileSync(join(dir, 'server-config.json'), JSON.stringify({ port }));
  return { args: ['--config', dir], env: { STATIC_BIND: '127.0.0.1', PORT: String(port) } };
};

const BINS: BinCase[] = [
  { bin: 'static-proxy', serve: staticServe },
  { bin: 'sp', serve: staticServe },
  {
    bin: 'translate-server',
    // A config file, so that the embedded default's line about this machine's engines is not printed.
    serve: (port, dir) => {
      const file = join(dir, 'translate.json');
      writeFileSync(file, JSON.stringify({ Translation: { Models: { pseudo: { adapter: 'pseudo' } } } }));
      return { args: ['--port', String(port), '--config', file], env: { TRANSLATE_BIND: '127.0.0.1' } };
    },
  },
  { bin: 'translate-tools' },
  { bin: 'translate-web', serve: (port) => ({ args: [], env: { PORT: String(port), WEB_BIND: '127.0.0.1' } }) },
  {
    bin: 'gateway',
    serve: (port, dir) => {
      const file = join(dir, 'gateway.yaml');
      writeFileSync(file, `sites:\n  - port: ${port}\n    routes:\n      - path: /\n        targets: [{url: "http://127.0.0.1:9"}]\n`);
      return { args: ['run', '-c', file], env: {} };
    },
  },
  {
    bin: 'recipes',
    serve: (port, dir) => ({
      args: [],
      env: {
        PORT: String(port),
        RECIPES_HOST: '127.0.0.1',
        JWT_SECRET: 'a test secret of more than thirty-two bytes',
        RECIPES_DB_FILE: join(dir, 'recipes.json'),
        RECIPES_UPLOADS_DIR: join(dir, 'uploads'),
      },
    }),
    secrets: ['JWT_SECRET'],
  },
];

/** A start that neither fails nor serves within this long is stopped (its exit code is then null). */
const STOP_AFTER_MS = 60_000;

const folders: string[] = [];
const children = new Set<ChildProcess>();
let held: Server;
/** A port on 127.0.0.1 held open by the test: a command started on it must fail to listen. */
let heldPort: number;

test.before(async () => {
  held = createServer();
  held.listen(0, '127.0.0.1');
  await once(held, 'listening');
  heldPort = (held.address() as { port: number }).port;
});

test.after.always(() => {
  for (const child of children) killGroup(child);
  held?.close();
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'server bins #'));
  folders.push(dir);
  return dir;
}

function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
}

interface Started {
  child: ChildProcess;
  cwd: string;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
}

/** Starts `bin` as `node <bin file> args` in a fresh folder, with PATH and `env` only. `wrap` runs it under
 * another command (a terminal). */
function start(bin: string, args: string[], env: Record<string, string>, wrap?: (command: string[]) => string[]): Started {
  const cwd = folder();
  const command = [process.execPath, join(PROJECT_ROOT, pkg.bin[bin]!), ...args];
  const [file, ...rest] = wrap ? wrap(command) : command;
  // A group of its own, so that teardown also ends what it started.
  const child = spawn(file!, rest, { cwd, env: { PATH: process.env['PATH'] ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk;
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => killGroup(child), STOP_AFTER_MS);
  const exited = once(child, 'close').then(([code]) => {
    clearTimeout(timer);
    children.delete(child);
    return code as number | null;
  });
  return { child, cwd, stdout: () => stdout, stderr: () => stderr, exited };
}

async function runToExit(bin: string, args: string[], env: Record<string, string>) {
  const run = start(bin, args, env);
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr(), left: readdirSync(run.cwd) };
}

const withoutSecrets = (env: Record<string, string>, secrets: string[] = []) => Object.fromEntries(Object.entries(env).filter(([name]) => !secrets.includes(name)));

const ONE_LINE = /^[^\n]+\n$/;

for (const { bin, serve, secrets } of BINS) {
  test(`${bin} --help and -h print the usage on stdout, exit 0, touch nothing and need no variable`, async (t) => {
    // Everything is set for serving on the held port: a --help that started the server would fail to listen
    // there, and its exit code would not be 0.
    const setup = serve?.(heldPort, folder()) ?? { args: [], env: {} };
    const env = withoutSecrets(setup.env, secrets);
    const [long, short] = await Promise.all([runToExit(bin, [...setup.args, '--help'], env), runToExit(bin, [...setup.args, '-h'], env)]);
    t.is(long.code, 0, long.stderr);
    t.regex(long.stdout, /^Usage: /);
    t.is(long.stderr, '');
    t.deepEqual(long.left, [], 'files left in the working folder');
    t.is(short.code, 0, short.stderr);
    t.is(short.stdout, long.stdout);
    t.deepEqual(short.left, []);
  });

  test(`${bin} with an unknown flag exits 2 with one line on stderr naming it and pointing to --help`, async (t) => {
    const setup = serve?.(heldPort, folder()) ?? { args: [], env: {} };
    const run = await runToExit(bin, [...setup.args, '--no-such-flag'], setup.env);
    t.is(run.code, 2, run.stderr);
    t.regex(run.stderr, ONE_LINE);
    t.regex(run.stderr, /--no-such-flag.*--help/);
    t.is(run.stdout, '');
    t.deepEqual(run.left, []);
  });

  if (serve !== undefined) {
    test(`${bin} on a port already taken exits 1 with one line naming the port, no stack`, async (t) => {
      const setup = serve(heldPort, folder());
      const run = await runToExit(bin, setup.args, setup.env);
      t.is(run.code, 1, run.stderr);
      t.regex(run.stderr, ONE_LINE);
      t.true(run.stderr.includes(`port ${heldPort}`), run.stderr);
      t.regex(run.stderr, / to another port\b/, 'the line says what to change');
      t.notRegex(run.stderr, /^ {4}at /m);
    });
  }
}

// A fresh start makes its data folder and uploads folder in the working folder (the defaults): when it then cannot
// listen, it takes them away again, leaving the folder as it found it.
test('recipes on a port already taken with the default data and uploads folders leaves its folder as it was', async (t) => {
  const run = await runToExit('recipes', [], { PORT: String(heldPort), RECIPES_HOST: '127.0.0.1', JWT_SECRET: 'a test secret of more than thirty-two bytes' });
  t.is(run.code, 1, run.stderr);
  t.true(run.stderr.includes(`port ${heldPort}`), run.stderr);
  t.deepEqual(run.left, []);
});

// ---------------------------------------------------------------- the static server's access log

/** Runs on a pseudo-terminal (util-linux `script`, always on Debian): its output is the terminal's. */
const onTerminal = (command: string[]) => ['script', '-qfec', command.map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' '), '/dev/null'];

/** Starts the static server on a free port serving `x.txt` with `logging`, requests it, and returns what it
 * logged once the request's line is there (stdout, or the log file). */
async function accessLog(logging: object | undefined, how: { env?: Record<string, string>; terminal?: boolean } = {}): Promise<string> {
  const dir = folder();
  writeFileSync(join(dir, 'x.txt'), 'logged');
  writeFileSync(join(dir, 'server-config.json'), JSON.stringify({ port: 0, folders: '.', ...(logging === undefined ? {} : { logging }) }));
  const server = start('static-proxy', ['--config', dir], { STATIC_BIND: '127.0.0.1', ...how.env }, how.terminal ? onTerminal : undefined);
  const logged = () => (logging === undefined ? server.stdout() : readLog(join(dir, 'access.log')));
  try {
    const port = await until(server, () => /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(server.stdout())?.[1]);
    await (await fetch(`http://127.0.0.1:${port}/x.txt`)).text();
    return await until(server, () => (/x\.txt/.test(logged()) ? logged() : undefined));
  } finally {
    killGroup(server.child);
  }
}

const readLog = (file: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

/** Waits for `found` to give a value, checking on each output of the server and every 50 ms; rejects when the
 * server ends first. */
function until<T>(server: Started, found: () => T | undefined): Promise<T> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const value = found();
      if (value === undefined) return;
      clearInterval(timer);
      resolve(value);
    };
    const timer = setInterval(check, 50);
    void server.exited.then(() => {
      clearInterval(timer);
      reject(new Error(`the server ended: ${server.stdout()}${server.stderr()}`));
    });
    check();
  });
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape that starts a colour code
const COLOUR = /\x1b\[/;

test('the static access log (dev format) has no colour codes in a pipe or a file, or with NO_COLOR; it has them on a terminal', async (t) => {
  const [pipe, file, terminal, noColour] = await Promise.all([
    accessLog(undefined),
    accessLog({ format: 'dev', file: 'access.log' }),
    accessLog(undefined, { terminal: true }),
    accessLog(undefined, { terminal: true, env: { NO_COLOR: '1' } }),
  ]);
  t.regex(pipe, /GET \/x\.txt 200 /);
  t.notRegex(pipe, COLOUR);
  t.regex(file, /GET \/x\.txt 200 /);
  t.notRegex(file, COLOUR);
  t.regex(terminal, COLOUR, 'on a terminal the dev format keeps its colours');
  t.regex(noColour, /GET \/x\.txt 200 /);
  t.notRegex(noColour, COLOUR);
});
