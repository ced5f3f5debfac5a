// Hostile input against the static reference (production mode), replayed over raw sockets so nothing is
// normalised on the way: traversal in every spelling, a link out of the folder, dot segments and hop-by-hop
// headers through the proxy, request smuggling, oversized heads, a CGI header spelled with underscores, uploads
// over their limits or named to climb out, and slow clients holding connections. Each gets a clear answer (or a
// closed connection), nothing outside the folder leaks, the server's peak memory stays bounded and it still
// serves a plain request afterwards.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { chmodSync, existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect, } from 'node:net';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { listenOnFreePort, releasePorts } from '../../conformance/harness/free-ports.ts';
import { launch, type Launched } from '../../conformance/harness/launch.ts';
import { loadReferenceTargets } from '../../conformance/harness/reference-targets.ts';
import { boundedAttack, cutAfterPartHead, refusedAsJson, withSlowClients } from './hostile-support.ts';
import { tempDir } from './run-cli.ts';

const RSS_GROWTH_BOUND_MB = 100;
// Bounds on waiting for a server that is stuck, not speed checks.
const ANSWER_TIMEOUT_MS = 15_000;
const SECRET = 'SECRET-OUTSIDE-THE-FOLDER';

let server: Launched;
let root: string;
let uploads: string;
let upstream: Server;
let upstreamPort: number;
const reached: { url: string; headers: IncomingHttpHeaders }[] = [];


/** Writes `raw` on a fresh connection and resolves with everything read until the server closes it or
 * `settleMs` passes without more bytes after an answer began. */
function exchange(raw: string | Buffer, settleMs = 300): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: server.port });
    let data = '';
    let settle: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(settle);
      clearTimeout(bound);
      socket.destroy();
      resolve(data);
    };
    const bound = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no end within ${ANSWER_TIMEOUT_MS} ms; read so far: ${data.slice(0, 300)}`));
    }, ANSWER_TIMEOUT_MS);
    socket.on('data', (chunk: Buffer) => {
      data += chunk.toString('latin1');
      clearTimeout(settle);
      settle = setTimeout(done, settleMs);
    });
    socket.on('close', done);
    socket.on('error', () => done());
    socket.write(raw);
  });
}

const statusOf = (answer: string): number => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
const get = (path: string, headers = ''): Promise<string> => exchange(`GET ${path} HTTP/1.1\r\nHost: x\r\n${headers}Connection: close\r\n\r\n`);

test.before(async () => {
  upstream = createServer((req, res) => {
    reached.push({ url: req.url!, headers: req.headers });
    res.end('from upstream');
  });
  upstreamPort = await listenOnFreePort(upstream);
  // The folder is made here, link included (a file out of the folder, reached from inside it): production
  // indexes it at start-up.
  const dir = tempDir();
  mkdirSync(join(dir, 'public'));
  mkdirSync(join(dir, 'scripts'));
  mkdirSync(join(dir, 'uploads'));
  uploads = join(dir, 'uploads');
  root = dir;
  writeFileSync(join(dir, 'public', 'ok.txt'), 'OK');
  writeFileSync(join(dir, 'secret.txt'), SECRET);
  symlinkSync(join(dir, 'secret.txt'), join(dir, 'public', 'link.txt'));
  writeFileSync(join(dir, 'scripts', 'env.sh'), '#!/bin/sh\nprintf "Content-Type: text/plain\\r\\n\\r\\n"\nenv\n');
  chmodSync(join(dir, 'scripts', 'env.sh'), 0o755);
  const { static: target } = loadReferenceTargets(['static']);
  server = await launch(target!.command!, target!.env ?? {}, {
    dir,
    env: { NODE_ENV: 'production' },
    config: {
      name: 'server-config.json',
      content: (ports) =>
        JSON.stringify({
          port: ports[0],
          folders: 'public',
          proxy: { '/api': `http://127.0.0.1:${upstreamPort}` },
          cgi: 'scripts',
          upload: [
            { path: '/upload', dir: 'uploads', maxFileSize: 4096, maxFiles: 2 },
            { path: '/upload-doc', dir: 'uploads', fieldName: 'doc' },
          ],
        }),
    },
  });
});

test.after.always(async () => {
  await server?.stop();
  upstream?.closeAllConnections();
  await new Promise((resolve) => upstream?.close(resolve));
  if (upstreamPort) releasePorts([upstreamPort]);
});

/** Runs `run`, then checks the memory bound and that a plain request is still served. */
function attack(t: ExecutionContext, run: () => Promise<void>): Promise<void> {
  return boundedAttack(t, server, RSS_GROWTH_BOUND_MB, run, async () => {
    const plain = await get('/ok.txt');
    t.is(statusOf(plain), 200, plain.slice(0, 200));
    t.true(plain.endsWith('OK'));
  });
}

const TRAVERSALS = [
  '/../secret.txt',
  '/%2e%2e/secret.txt',
  '/%2E%2E%2Fsecret.txt',
  '/%252e%252e/secret.txt',
  '/..%2fsecret.txt',
  '/..%5csecret.txt',
  '/..\\secret.txt',
  '/%00/../secret.txt',
  '/ok.txt%00/../../secret.txt',
  '/%c0%ae%c0%ae/secret.txt',
  '/./.././secret.txt',
  '//../secret.txt',
  '/link.txt',
];

test.serial('traversal in every spelling, and a link out of the folder: a 4xx, never the file outside', async (t) => {
  await attack(t, async () => {
    for (const path of TRAVERSALS) {
      const answer = await get(path);
      t.false(answer.includes(SECRET), `${path} leaked the secret`);
      t.true(statusOf(answer) >= 400 && statusOf(answer) < 500, `${path}: ${answer.slice(0, 80)}`);
    }
  });
});

test.serial('the proxy: dot segments never reach the upstream under /api; hop-by-hop headers stay behind', async (t) => {
  await attack(t, async () => {
    reached.length = 0;
    for (const path of ['/api/../scripts/env.sh', '/api/%2e%2e/secret.txt', '/api/./../ok.txt']) {
      const answer = await get(path);
      t.false(answer.includes('from upstream'), `${path} went upstream: ${answer.slice(0, 120)}`);
    }
    t.deepEqual(reached, []);
    const answer = await get('/api/h', 'X-Secret: hop only\r\nConnection: X-Secret\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n');
    t.is(statusOf(answer), 200);
    t.is(reached.length, 1);
    for (const name of ['x-secret', 'upgrade', 'http2-settings']) t.is(reached[0]?.headers[name], undefined, name);
  });
});

test.serial('request smuggling: both framings, or two lengths, is a 400 and the hidden request is never served', async (t) => {
  await attack(t, async () => {
    const hidden = 'GET /ok.txt HTTP/1.1\r\nHost: x\r\n\r\n';
    const both = `POST /ok.txt HTTP/1.1\r\nHost: x\r\nContent-Length: ${4 + hidden.length}\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${hidden}`;
    const twoLengths = `POST /ok.txt HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: ${hidden.length}\r\n\r\n${hidden}`;
    const obfuscated = `POST /ok.txt HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: xchunked\r\nContent-Length: 0\r\n\r\n${hidden}`;
    for (const [name, raw] of Object.entries({ both, twoLengths, obfuscated })) {
      const answer = await exchange(raw);
      t.is(statusOf(answer), 400, `${name}: ${answer.slice(0, 120)}`);
      t.is(answer.match(/^HTTP\/1\.1 /gm)?.length, 1, `${name}: more than one answer: ${answer.slice(0, 300)}`);
    }
  });
});

test.serial('an oversized head (a 1 MB path, 200 KB of headers) is refused without taking the server down', async (t) => {
  await attack(t, async () => {
    const longPath = await exchange(`GET /${'a'.repeat(1 << 20)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    t.true([414, 431, 400].includes(statusOf(longPath)), longPath.slice(0, 80));
    const headers = Array.from({ length: 2000 }, (_, i) => `X-H${i}: ${'v'.repeat(100)}\r\n`).join('');
    const many = await exchange(`GET /ok.txt HTTP/1.1\r\nHost: x\r\n${headers}\r\n`);
    t.is(statusOf(many), 431, many.slice(0, 80));
  });
});

test.serial('CGI: a header spelled with underscores does not pose as its hyphenated twin', async (t) => {
  await attack(t, async () => {
    const answer = await get('/cgi-bin/env.sh', 'X-User: real\r\nX_User: forged\r\n');
    t.is(statusOf(answer), 200, answer.slice(0, 120));
    t.regex(answer, /^HTTP_X_USER=real$/m);
    t.notRegex(answer, /forged/);
  });
});

test.serial('uploads: 5 MB over a 4 KB limit (413), 500 files over a limit of 2 (400), a name climbing out: nothing kept outside', async (t) => {
  await attack(t, async () => {
    const post = async (form: FormData): Promise<number> => (await fetch(`http://127.0.0.1:${server.port}/upload`, { method: 'POST', body: form, signal: AbortSignal.timeout(30_000) })).status;
    const big = new FormData();
    big.append('file', new Blob([new Uint8Array(5 * 2 ** 20)]), 'big.bin');
    t.is(await post(big), 413);
    const many = new FormData();
    for (let i = 0; i < 500; i++) many.append('file', new Blob(['x']), `f${i}.txt`);
    t.is(await post(many), 400);
    t.deepEqual(readdirSync(uploads), [], 'a refused upload left files');
    const climbing = new FormData();
    climbing.append('file', new Blob(['climbed']), '../../climbed.txt');
    t.is(await post(climbing), 200);
    t.false(existsSync(join(root, 'climbed.txt')) || existsSync(join(root, '..', 'climbed.txt')), 'a file was written outside the upload folder');
  });
});

test.serial('uploads cut right after the head of a part, kept or refused (another field, after a file over the limit): refused as JSON, nothing kept', async (t) => {
  await attack(t, async () => {
    const post = async (path: string, { headers, body }: { headers: Record<string, string>; body: string }) => {
      const res = await fetch(`http://127.0.0.1:${server.port}${path}`, { method: 'POST', headers, body, signal: AbortSignal.timeout(30_000) });
      return { status: res.status, body: await res.text() };
    };
    const before = readdirSync(uploads).sort();
    refusedAsJson(t, await post('/upload', cutAfterPartHead(['file'])), 400, 'one part');
    refusedAsJson(t, await post('/upload-doc', cutAfterPartHead(['file'])), 400, 'another field');
    refusedAsJson(t, await post('/upload', cutAfterPartHead(['file', 'file'], 'x'.repeat(5000))), 413, 'after a file over the limit');
    t.deepEqual(readdirSync(uploads).sort(), before, 'a refused upload left files');
  });
});

test.serial('slow clients holding 50 connections with half-sent heads do not stop others being served', async (t) => {
  await attack(t, async () => {
    const answer = await withSlowClients(server.port, 'GET /ok.txt HTTP/1.1\r\nHost: x\r\nX-Slow: ', 50, () => get('/ok.txt'));
    t.is(statusOf(answer), 200);
  });
});
