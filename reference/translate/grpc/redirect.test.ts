// The redirect adapter across two real instances: X forwards model `remote` to Y; a loop between them
// (X `ping` → Y `pong` → X `ping`) ends in FAILED_PRECONDITION.
import { once } from 'node:events';
import { createServer } from 'node:net';
import { create } from '@bufbuild/protobuf';
import test from 'ava';
import { TranslateService, TranslateTextRequestSchema } from '../../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { startTestServer } from './test-server.ts';

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

function startInstance(id: string, port: number, models: Record<string, unknown>) {
  return startTestServer({ Models: { pseudo: { adapter: 'pseudo' }, ...models }, DefaultModel: 'pseudo' }, { port, env: { TRANSLATE_INSTANCE_ID: id } });
}

const request = (model: string) => create(TranslateTextRequestSchema, { text: 'Hello', sourceLanguage: 'en', targetLanguage: 'es', model });

test('a redirected model is served by the other instance; a loop is FAILED_PRECONDITION', async (t) => {
  const [px, py] = [await freePort(), await freePort()];
  const servers = await Promise.all([
    startInstance('x', px, {
      remote: { adapter: 'redirect', address: `127.0.0.1:${py}`, model: 'pseudo' },
      ping: { adapter: 'redirect', address: `127.0.0.1:${py}`, model: 'pong' },
    }),
    startInstance('y', py, { pong: { adapter: 'redirect', address: `127.0.0.1:${px}`, model: 'ping' } }),
  ]);
  const client = servers[0].client;
  t.teardown(() => {
    for (const server of servers) server.stop();
  });

  const forwarded = await client.call(TranslateService.method.translateText, request('remote'), {}, 10_000);
  t.is(forwarded.translatedText, '[spa] Ĥéļļö');
  t.is(forwarded.modelUsed, 'remote');

  const error = await t.throwsAsync(client.call(TranslateService.method.translateText, request('ping'), {}, 10_000));
  t.is((error as { code?: string }).code, 'FAILED_PRECONDITION');
  t.regex(error!.message, /redirect cycle detected for model "ping": x -> y -> x/);
});
