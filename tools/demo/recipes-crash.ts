// kill -9 during a write burst, repeated: the reference recipe manager is started on one data file, 32 clients
// create recipes through the API as fast as it acknowledges them, and the process is killed with SIGKILL at a
// random moment of the burst. It is started again on the same file (taking over the stale lock) and every
// recipe whose creation was acknowledged (a 201 with its id reached the client) is looked up. Each round prints
// acknowledged, found of those, and written without an acknowledgement (in flight at the kill: allowed either
// way). The demo exits 1 if any acknowledged recipe is missing.
//
//   npx tsx tools/demo/recipes-crash.ts [--rounds 10]
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePorts, releasePorts } from '../../conformance/harness/free-ports.ts';
import { PROJECT_ROOT } from '../../conformance/harness/project-root.ts';
import { loadReferenceTargets } from '../../conformance/harness/reference-targets.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '10' } } });
const ROUNDS = Number(values.rounds);
const CLIENTS = 32;
const SECRET = 'demo secret of the recipe manager crash rounds, 48 bytes';
const PASSWORD = 'crash-demo-password';

const folder = mkdtempSync(join(tmpdir(), 'recipes-crash-'));
const [port] = await freePorts(1);
const api = `http://127.0.0.1:${port}`;
let child: ChildProcess | undefined;
/** Resolves when the current child has exited (listened for from its start: a kill may end it before the burst's
 * clients have all returned). */
let childExited: Promise<unknown> = Promise.resolve();
// The bundled reference (built here if out of date), as the conformance runs start it: it starts in a fraction
// of the time the tsx-run `recipes` command needs, which matters on a busy machine.
const { command } = loadReferenceTargets(['recipes'])['recipes']!;
const [node, script] = command!.replace('{root}', PROJECT_ROOT).split(' ') as [string, string];

function start(): Promise<ChildProcess> {
  const proc = spawn(node === 'node' ? process.execPath : node, [script], {
    env: { ...process.env, JWT_SECRET: SECRET, PORT: String(port), RECIPES_HOST: '127.0.0.1', RECIPES_DB_FILE: join(folder, 'recipes.json'), RECIPES_UPLOADS_DIR: join(folder, 'uploads') },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  childExited = once(proc, 'exit');
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    const poll = setInterval(() => {
      fetch(`${api}/health`).then(
        (r) => {
          if (r.ok) {
            clearInterval(poll);
            resolve(proc);
          }
        },
        () => {},
      );
    }, 50);
    proc.once('exit', (code) => {
      clearInterval(poll);
      reject(new Error(`the recipe manager exited (${code}): ${err}`));
    });
  });
}

// biome-ignore lint/suspicious/noExplicitAny: the demo reads the reference's answers field by field
async function call(method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${api}${path}`, {
    method,
    signal: AbortSignal.timeout(30_000),
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

async function login(): Promise<string> {
  const { status, json } = await call('POST', '/api/auth/login', undefined, { email: 'crash@example.test', password: PASSWORD });
  if (status !== 200) throw new Error(`login: ${status} ${JSON.stringify(json)}`);
  return json.token;
}

/** Every recipe id of the caller's own (mine=true), page by page. */
async function ownIds(token: string): Promise<Set<string>> {
  const ids = new Set<string>();
  for (let page = 1; ; page++) {
    const { status, json } = await call('GET', `/api/recipes?mine=true&limit=100&page=${page}`, token);
    if (status !== 200) throw new Error(`list: ${status} ${JSON.stringify(json)}`);
    for (const r of json.items) ids.add(r.id);
    if (page >= json.totalPages) return ids;
  }
}

/** Clients creating recipes until the process dies; the ids acknowledged. */
async function burst(token: string, round: number, killAfterMs: number): Promise<{ acknowledged: string[]; attempts: number }> {
  const acknowledged: string[] = [];
  let attempts = 0;
  let dead = false;
  const killer = setTimeout(() => {
    dead = true;
    child!.kill('SIGKILL');
  }, killAfterMs);
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let n = 0; !dead; n++) {
        attempts++;
        try {
          const { status, json } = await call('POST', '/api/recipes', token, { title: `Round ${round} client ${client} recipe ${n}`, steps: [{ order: 1, text: 'Mix.' }] });
          if (status === 201) acknowledged.push(json.id);
        } catch {
          return; // the connection died with the process
        }
      }
    }),
  );
  clearTimeout(killer);
  await childExited;
  return { acknowledged, attempts };
}

// Interrupted (Ctrl-C, a timeout): the server and the folder go too.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    child?.kill('SIGKILL');
    rmSync(folder, { recursive: true, force: true });
    process.exit(130);
  });
}

let failures = 0;
try {
  child = await start();
  const setup = await call('POST', '/api/admin/setup', undefined, { email: 'crash@example.test', password: PASSWORD, name: 'Crash Admin' });
  if (setup.status !== 201) throw new Error(`setup: ${setup.status} ${JSON.stringify(setup.json)}`);
  console.log(`recipe manager on ${api}, data ${join(folder, 'recipes.json')}; ${CLIENTS} clients; ${ROUNDS} rounds`);
  console.log('round  kill after  acknowledged  found of them  written, not acknowledged  recipes in file');
  let before = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    const token = await login();
    const killAfterMs = 300 + Math.floor(Math.random() * 900);
    const { acknowledged } = await burst(token, round, killAfterMs);
    child = await start();
    const ids = await ownIds(await login());
    const found = acknowledged.filter((id) => ids.has(id)).length;
    const extra = ids.size - before - found;
    if (found !== acknowledged.length) failures++;
    console.log(
      `${String(round).padStart(5)}  ${`${killAfterMs} ms`.padStart(10)}  ${String(acknowledged.length).padStart(12)}  ${String(found).padStart(13)}  ${String(extra).padStart(25)}  ${String(ids.size).padStart(15)}${found === acknowledged.length ? '' : '  MISSING'}`,
    );
    before = ids.size;
  }
  console.log(failures === 0 ? `every acknowledged write was found after each of ${ROUNDS} kills` : `${failures} rounds lost acknowledged writes`);
} finally {
  child?.kill('SIGKILL');
  releasePorts([port!]);
  rmSync(folder, { recursive: true, force: true });
}
process.exitCode = failures === 0 ? 0 : 1;
