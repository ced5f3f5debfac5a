// Small files answered from memory give the answer sirv gives from disk: same status, headers and body, for
// every way sirv finds a file (extensions, index pages, a trailing slash), HEAD, headers set by earlier
// features, and what it leaves to sirv (ranges, large and precompressed files). An edited file is served in
// its new form within a second; a removed one is sirv's again.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import type { Handler, SiteContext } from '../site/handler.ts';
import { serve } from '../site/serve-for-tests.ts';
import { readsSettled } from './file-cache.ts';
import { createStaticFolders } from './static-folders.ts';

function folder(): { root: string; dir: string } {
  const root = mkdtempSync(join(tmpdir(), 'conform-test-cache-'));
  const dir = join(root, 'public');
  mkdirSync(join(dir, 'sub'), { recursive: true });
  const files: Record<string, string | Buffer> = {
    'a.txt': 'A text',
    'page.html': '<p>page</p>',
    'index.html': '<p>home</p>',
    'sub/index.html': '<p>sub</p>',
    'data.json': '{"x":1}',
    noext: 'no extension',
    'big.bin': Buffer.alloc(100 * 1024, 7),
    'x.txt.gz': Buffer.from([31, 139, 8, 0]),
    'ü.txt': 'umlaut',
  };
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), body);
  return { root, dir };
}

const PATHS = ['/a.txt', '/a.txt/', '/page', '/page.html', '/', '/sub', '/sub/', '/data.json', '/noext', '/big.bin', '/x.txt.gz', '/%C3%BC.txt', '/missing', '/.hidden'];

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

async function answer(url: string, init?: RequestInit): Promise<Answer> {
  const res = await fetch(url, init);
  const headers = Object.fromEntries([...res.headers].filter(([name]) => name !== 'date' && name !== 'keep-alive' && name !== 'connection'));
  return { status: res.status, headers, body: Buffer.from(await res.arrayBuffer()).toString('base64') };
}

async function site(dir: string, before?: Handler): Promise<{ url: string; close(): Promise<void> }> {
  const ctx: SiteContext = { baseDir: dir, mode: 'production', warn: () => {} };
  const files = createStaticFolders([{ mount: '/', dir, key: 'folders' }], ctx, null);
  return serve(before ? (req, res, next) => before(req, res, () => files(req, res, next)) : files);
}

/** Each path asked for twice: the first answer is sirv's (nothing is in memory yet), the second from memory. */
async function firstAndSecond(t: import('ava').ExecutionContext, url: string, init?: RequestInit): Promise<void> {
  for (const path of PATHS) {
    const first = await answer(url + path, init);
    await readsSettled();
    t.deepEqual(await answer(url + path, init), first, `${init?.method ?? 'GET'} ${path}`);
  }
}

test('answers from memory equal sirv answers from disk: GET, HEAD, a range', async (t) => {
  const { root, dir } = folder();
  const server = await site(dir);
  try {
    await firstAndSecond(t, server.url);
    await firstAndSecond(t, server.url, { method: 'HEAD' });
    const ranged = await answer(`${server.url}/a.txt`, { headers: { range: 'bytes=2-3' } });
    t.is(ranged.status, 206);
    t.is(Buffer.from(ranged.body, 'base64').toString(), 'te');
  } finally {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
});

test('headers set by earlier features win over the file headers, as with sirv', async (t) => {
  const { root, dir } = folder();
  const server = await site(dir, (_req, res, next) => {
    res.setHeader('Content-Type', 'text/x-custom');
    res.setHeader('Last-Modified', 'Thu, 01 Jan 2026 00:00:00 GMT');
    res.setHeader('X-Extra', 'yes');
    next();
  });
  try {
    await firstAndSecond(t, server.url);
    const res = await answer(`${server.url}/a.txt`);
    t.is(res.headers['content-type'], 'text/x-custom');
    t.is(res.headers['x-extra'], 'yes');
  } finally {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
});

test('an edited file is served in its new form within a second; a removed one is left to sirv', async (t) => {
  const { root, dir } = folder();
  const server = await site(dir);
  const text = async () => Buffer.from((await answer(`${server.url}/a.txt`)).body, 'base64').toString();
  try {
    await text();
    await readsSettled();
    t.is(await text(), 'A text');
    writeFileSync(join(dir, 'a.txt'), 'A longer text');
    const later = new Date(Date.now() + 5000);
    utimesSync(join(dir, 'a.txt'), later, later);
    await new Promise((r) => setTimeout(r, 1100));
    await text(); // the check of the disk starts here
    await readsSettled();
    const res = await answer(`${server.url}/a.txt`);
    t.is(Buffer.from(res.body, 'base64').toString(), 'A longer text');
    t.is(res.headers['content-length'], String('A longer text'.length));
    t.is(res.headers['last-modified'], later.toUTCString());
    rmSync(join(dir, 'a.txt'));
    await new Promise((r) => setTimeout(r, 1100));
    await text().catch(() => undefined); // from memory, once more; the check finds it gone
    await readsSettled();
    // sirv's index still names it: the head goes out and the failing stream cuts the connection.
    await t.throwsAsync(text());
  } finally {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
});
