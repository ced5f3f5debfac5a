// Issue 31, finding 11: recipe writes on a full or read-only disk, kept. The recipe manager's data file lives on a
// real tmpfs of 1 MiB (mounted by the test: it runs as root on the project's machines; elsewhere it fails saying
// so): filled up, a write answers 507 with a JSON error naming the full disk; remounted read-only, 503 naming the
// read-only store; nothing acknowledged is lost (the file on disk is whole and holds what was answered 201, and
// nothing that was refused), and once there is room again (or the folder is writable again) writes succeed.
// Catalog recipes/errors/storage-full, recipes/errors/storage-unavailable.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { launch, type Launched } from '../../conformance/harness/launch.ts';
import { loadReferenceTargets } from '../../conformance/harness/reference-targets.ts';
import { type Answer, refusedAsJson } from './hostile-support.ts';

const TMPFS_BYTES = 1024 * 1024;

let mountPoint: string;
let mounted = false;
let server: Launched | undefined;
let base: string;
let token: string;

async function call(method: string, path: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }), signal: AbortSignal.timeout(30_000) });
  return { status: res.status, body: await res.text() };
}

/** The recipes on disk, by title: what a restart would find. */
function titlesOnDisk(): string[] {
  const data = JSON.parse(readFileSync(join(mountPoint, 'recipes.json'), 'utf8')) as { recipes: Record<string, { title: string }> };
  return Object.values(data.recipes)
    .map((recipe) => recipe.title)
    .sort();
}

/** Writes zeros into `file` until the file system is full (ENOSPC). */
function fillUp(file: string): void {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(4096);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
}

const mount = (...args: string[]) => execFileSync('mount', args, { stdio: ['ignore', 'ignore', 'pipe'] });

test.before(async () => {
  mountPoint = mkdtempSync(join(tmpdir(), 'recipes-tmpfs-'));
  try {
    mount('-t', 'tmpfs', '-o', `size=${TMPFS_BYTES},mode=0700`, 'tmpfs', mountPoint);
  } catch (err) {
    rmSync(mountPoint, { recursive: true, force: true });
    throw new Error(`this test mounts a tmpfs for a real full disk (root and mount needed): ${(err as Error).message}`);
  }
  mounted = true;
  const { recipes: target } = loadReferenceTargets(['recipes']);
  server = await launch(target!.command!, target!.env!, { env: { JWT_SECRET: 'storage-test-secret-0123456789abcdef', RECIPES_DB_FILE: join(mountPoint, 'recipes.json') } });
  base = `http://127.0.0.1:${server.port}`;
  const setup = await call('POST', '/api/admin/setup', { email: 'admin@storage.test', password: 'a long enough password 1', name: 'Admin' });
  token = (JSON.parse(setup.body) as { token: string }).token;
  if (!token) throw new Error(`setup: ${setup.status} ${setup.body}`);
});

test.after.always(async () => {
  await server?.stop();
  if (mounted) execFileSync('umount', [mountPoint]);
  if (mountPoint) rmSync(mountPoint, { recursive: true, force: true });
});

test.serial('a full disk: 507 naming it, nothing lost, writes again once there is room', async (t) => {
  const kept = await call('POST', '/api/recipes', { title: 'Kept' });
  t.is(kept.status, 201, kept.body);
  const id = (JSON.parse(kept.body) as { id: string }).id;
  const filler = join(mountPoint, 'filler');
  fillUp(filler);
  const refused = await call('POST', '/api/recipes', { title: 'Refused on a full disk' });
  refusedAsJson(t, refused, 507, 'create on a full disk');
  t.regex(refused.body, /no space left/i);
  const changed = await call('PATCH', `/api/recipes/${id}`, { title: 'Changed on a full disk' });
  refusedAsJson(t, changed, 507, 'change on a full disk');
  t.deepEqual(titlesOnDisk(), ['Kept'], 'the file on disk, whole, as before');
  t.is(JSON.parse((await call('GET', `/api/recipes/${id}`)).body).title, 'Kept', 'the server answers what is on disk');
  t.regex(server!.stderr(), /^POST \/api\/recipes: 507: .*recipes\.json: cannot write the store .*no space left on device.*\(ENOSPC\)$/m, 'the cause is in the log');
  rmSync(filler);
  const again = await call('POST', '/api/recipes', { title: 'After room was made' });
  t.is(again.status, 201, again.body);
  t.deepEqual(titlesOnDisk(), ['After room was made', 'Kept']);
});

test.serial('a read-only data folder: 503 naming it, nothing lost, writes again once it is writable', async (t) => {
  const before = titlesOnDisk();
  mount('-o', 'remount,ro', mountPoint);
  let answers: Answer[];
  try {
    answers = [await call('POST', '/api/recipes', { title: 'Refused on a read-only disk' }), await call('PATCH', '/api/admin/settings', { allowRegistration: false })];
  } finally {
    mount('-o', 'remount,rw', mountPoint);
  }
  for (const answer of answers) {
    refusedAsJson(t, answer, 503, 'a write to a read-only store');
    t.regex(answer.body, /read-only/i);
  }
  t.deepEqual(titlesOnDisk(), before, 'the file on disk, whole, as before');
  const again = await call('POST', '/api/recipes', { title: 'Writable again' });
  t.is(again.status, 201, again.body);
  t.true(titlesOnDisk().includes('Writable again'));
});
