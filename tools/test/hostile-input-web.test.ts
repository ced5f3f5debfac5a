// Hostile input against the web gateway reference, kept: bodies that claim or carry more than the limit, that
// are not UTF-8 or not JSON, nested a hundred thousand deep or holding a million keys, base64 that is not, and
// slow clients; and the answer when the translation service cannot be reached (no backend address in it). The
// backend is a port nothing listens on: every attack here is decided before a call would go out. Each gets its
// status and a JSON error, the gateway's peak memory stays bounded and it still answers afterwards.
import { request } from 'node:http';
import test, { type ExecutionContext } from 'ava';
import { freePorts, releasePorts } from '../../conformance/harness/free-ports.ts';
import { launch, type Launched } from '../../conformance/harness/launch.ts';
import { loadReferenceTargets } from '../../conformance/harness/reference-targets.ts';
import { type Answer, boundedAttack, refusedAsJson, withSlowClients } from './hostile-support.ts';

const RSS_GROWTH_BOUND_MB = 100;
// A bound on waiting for a gateway that is stuck, not a speed check.
const ANSWER_TIMEOUT_MS = 30_000;

let gateway: Launched;
let deadPort: number;

test.before(async () => {
  deadPort = (await freePorts(1))[0]!;
  const { 'translate-web': target } = loadReferenceTargets(['translate-web']);
  gateway = await launch(target!.command!, target!.env ?? {}, { env: { TRANSLATE_GRPC_URL: `127.0.0.1:${deadPort}` } });
});

test.after.always(async () => {
  await gateway?.stop();
  if (deadPort) releasePorts([deadPort]);
});

/** POSTs `body` (written in pieces of at most 1 MB, so a refusal can come mid-body) with the given headers. A
 * connection reset before any answer is an answer of status 0 (the test then fails saying so). */
function post(path: string, body: Buffer | string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request(
      { host: '127.0.0.1', port: gateway.port, path, method: 'POST', headers: { 'content-type': 'application/json', ...headers }, timeout: ANSWER_TIMEOUT_MS },
      (res) => {
        answered = true;
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('error', () => {});
        // 'close' also after an answer cut short, which then reads as what came of it.
        res.on('close', () => resolve({ status: res.statusCode!, body: text }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms`)));
    req.on('error', (err) => {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EPIPE' && code !== 'ECONNRESET') reject(err);
      else if (!answered) resolve({ status: 0, body: `the connection was reset (${code}) before an answer` });
    });
    const bytes = Buffer.from(body);
    const piece = 1 << 20;
    const write = (at: number): void => {
      if (at >= bytes.length || req.destroyed) return void req.end();
      if (req.write(bytes.subarray(at, at + piece))) write(at + piece);
      else req.once('drain', () => write(at + piece));
    };
    write(0);
  });
}

/** Runs `run`, then checks the memory bound and that the gateway still answers. */
function attack(t: ExecutionContext, run: () => Promise<void>): Promise<void> {
  return boundedAttack(t, gateway, RSS_GROWTH_BOUND_MB, run, async () => {
    t.is((await fetch(`http://127.0.0.1:${gateway.port}/api/openapi.json`)).status, 200);
  });
}



test.serial('a body that claims 1 GB is refused (413) from its header, before any byte is read', async (t) => {
  await attack(t, async () => {
    const answer = await post('/api/translate', '{}', { 'content-length': String(2 ** 30) });
    refusedAsJson(t, answer, 413, 'Content-Length 1 GB');
  });
});

test.serial('an 80 MB body without a length is cut at the limit (413), not read whole', async (t) => {
  await attack(t, async () => {
    const answer = await post('/api/transcribe', Buffer.alloc(80 * 2 ** 20, 0x20), { 'transfer-encoding': 'chunked' });
    refusedAsJson(t, answer, 413, '80 MB chunked');
  });
});

test.serial('bytes that are not UTF-8, text that is not JSON, JSON a hundred thousand deep: 400', async (t) => {
  await attack(t, async () => {
    refusedAsJson(t, await post('/api/translate', Buffer.from([0x7b, 0xff, 0xfe, 0x7d])), 400, 'not UTF-8');
    refusedAsJson(t, await post('/api/translate', '{"text": '), 400, 'cut JSON');
    refusedAsJson(t, await post('/api/translate', `${'['.repeat(100_000)}${']'.repeat(100_000)}`), 400, 'nested arrays');
    refusedAsJson(t, await post('/api/translate', `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`), 400, 'nested objects');
  });
});

test.serial('a million keys, or base64 that is not: 400 naming the field, in bounded memory', async (t) => {
  await attack(t, async () => {
    const keys = `{${Array.from({ length: 1_000_000 }, (_, i) => `"k${i}":0`).join(',')}}`;
    refusedAsJson(t, await post('/api/translate', keys), 400, 'a million keys');
    const answer = await post('/api/transcribe', JSON.stringify({ audio_data: '!!!not base64!!!' }));
    refusedAsJson(t, answer, 400, 'bad base64');
    t.regex(answer.body, /audio|base64/i);
  });
});

test.serial('the service out of reach: 503 without the backend address in the body', async (t) => {
  await attack(t, async () => {
    const answer = await post('/api/translate', JSON.stringify({ text: 'hello', target_language: 'es' }));
    refusedAsJson(t, answer, 503, 'unreachable backend');
    t.false(answer.body.includes(String(deadPort)), answer.body);
    t.false(answer.body.includes('127.0.0.1'), answer.body);
  });
});

test.serial('slow clients holding 50 connections with half-sent heads do not stop others being served', async (t) => {
  await attack(t, async () => {
    const answer = await withSlowClients(gateway.port, 'POST /api/translate HTTP/1.1\r\nHost: x\r\nX-Slow: ', 50, () => post('/api/translate', '[]'));
    refusedAsJson(t, answer, 400, 'a plain request among slow ones');
  });
});
