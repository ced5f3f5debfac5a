// The redirect adapter across two real instances: X forwards model `remote` to Y; a loop between them
// (X `ping` → Y `pong` → X `ping`) ends in FAILED_PRECONDITION.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { create } from '@bufbuild/protobuf';
import test from 'ava';
import { TranslateService, TranslateTextRequestSchema } from '../../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { TranslateServiceClient } from './translate-client.ts';

const MAIN = fileURLToPath(new URL('../main.ts', import.meta.url));

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

async function startInstance(id: string, port: number, models: Record<string, unknown>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--port', String(port)], {
    env: {
      ...process.env,
      TRANSLATE_BIND: '127.0.0.1',
      TRANSLATE_INSTANCE_ID: id,
      Translation: JSON.stringify({ Models: { pseudo: { adapter: 'pseudo' }, ...models }, DefaultModel: 'pseudo' }),
      AllowedModels: 'null',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.setEncoding('utf8');
  while (!out.includes('listening on')) out += ((await once(child.stdout!, 'data')) as [string])[0];
  return child;
}

const request = (model: string) => create(TranslateTextRequestSchema, { text: 'Hello', sourceLanguage: 'en', targetLanguage: 'es', model });

test('a redirected model is served by the other instance; a loop is FAILED_PRECONDITION', async (t) => {
  const [px, py] = [await freePort(), await freePort()];
  const children = await Promise.all([
    startInstance('x', px, {
      remote: { adapter: 'redirect', address: `127.0.0.1:${py}`, model: 'pseudo' },
      ping: { adapter: 'redirect', address: `127.0.0.1:${py}`, model: 'pong' },
    }),
    startInstance('y', py, { pong: { adapter: 'redirect', address: `127.0.0.1:${px}`, model: 'ping' } }),
  ]);
  const client = new TranslateServiceClient(`127.0.0.1:${px}`);
  t.teardown(() => {
    client.close();
    for (const child of children) child.kill();
  });

  const forwarded = await client.call(TranslateService.method.translateText, request('remote'), {}, 10_000);
  t.is(forwarded.translatedText, '[spa] Ĥéļļö');
  t.is(forwarded.modelUsed, 'remote');

  const error = await t.throwsAsync(client.call(TranslateService.method.translateText, request('ping'), {}, 10_000));
  t.is((error as { code?: string }).code, 'FAILED_PRECONDITION');
  t.regex(error!.message, /redirect cycle detected for model "ping": x -> y -> x/);
});
