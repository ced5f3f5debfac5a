// The JSON bodies (informational: the document shows none; these are the reference's design). Each POST
// body is the route's request message in the protobuf JSON mapping and arrives at the service field for
// field; each 200 body is the response message in that mapping with every field, default values too;
// proto field names are accepted; any text reaches the service unchanged (a property). Malformed, mistyped
// or oversized bodies are refused (415, 400, 413) without a call.
import { create, type DescMessage, fromBinary, fromJson, type JsonValue, toJson } from '@bufbuild/protobuf';
import fc from 'fast-check';
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { strict as assert } from 'node:assert';
import type { CaseContext } from '../harness/case-context.ts';
import { check } from '../harness/check.ts';
import type { RecordedCall, StubHandler } from '../harness/grpc-stub.ts';
import { cannedJson, carries, markedHandler } from './exchanges.ts';
import { errorCode, GATEWAY, type Gateway, route, ROUTES, type Route, rpcPath, postJson, serviceCalls, sharedGateway, sharedStub, shown, succeeded } from './target.ts';

/** Requests carrying it get an empty response message (every field at its default). */
const EMPTY = 'answer-an-empty-message';
const handler: StubHandler = (call) => (carries(call, EMPTY) ? { response: new Uint8Array(0) } : markedHandler(call));

async function stubbed(c: CaseContext) {
  const s = await sharedStub('bodies', handler);
  return { s, g: await sharedGateway(c, 'bodies', { grpcUrl: s.address }) };
}

/** A request with every field set to something other than its default. */
function fullBody(r: Route, marker: string): Record<string, unknown> | undefined {
  const audio = Buffer.from(`RIFF ${marker} ÿ\u0000`, 'latin1').toString('base64');
  const languages = { sourceLanguage: 'en', targetLanguage: 'es', languageFormat: 'native' };
  switch (r.name) {
    case 'translate':
      return { text: marker, model: 'some-model', context: 'a greeting', ...languages };
    case 'detect':
      return { text: marker, languageFormat: 'native' };
    case 'localize':
      return { json: JSON.stringify({ a: marker }), existingTranslation: '{"a":"hola"}', context: '{"a":"a greeting"}', model: 'm', ...languages };
    case 'transcribe':
      return { audioData: audio, language: 'en', audioFormat: 'wav', languageFormat: 'native' };
    case 'translate-audio':
      return { audioData: audio, audioFormat: 'wav', targetVoice: 'f3', ...languages };
    case 'synthesize':
      return { text: marker, language: 'en', voice: 'f3', speed: 1.5, languageFormat: 'native' };
    default:
      return undefined;
  }
}

const asJson = (schema: DescMessage, call: RecordedCall): JsonValue => toJson(schema, fromBinary(schema, call.message), { alwaysEmitImplicit: true });
const expected = (schema: DescMessage, body: unknown): JsonValue => toJson(schema, fromJson(schema, body as JsonValue), { alwaysEmitImplicit: true });

async function recorded(g: Gateway, s: Awaited<ReturnType<typeof stubbed>>['s'], r: Route, body: unknown, marker: string) {
  const res = await postJson(g.http, r, body);
  const call = r.method === 'GET' ? s.calls.find((x) => x.path === rpcPath(r.rpc)) : s.calls.find((x) => carries(x, marker));
  return { res, call };
}

for (const r of ROUTES) {
  check(`translate-web/bodies/${r.name}/request-and-response-in-proto-json`, GATEWAY, async (t, c) => {
    const { s, g } = await stubbed(c);
    const marker = `fields ${c.id}`;
    const body = fullBody(r, marker);
    const { res, call } = await recorded(g, s, r, body, marker);
    t.true(succeeded(res), shown(res));
    t.regex(String(res.headers['content-type']), /^application\/json/);
    t.deepEqual(res.json(), cannedJson(r.rpc), 'the response body');
    t.truthy(call, 'no call reached the service');
    if (body) t.deepEqual(call && asJson(r.rpc.input, call), expected(r.rpc.input, body), 'the request the service got');
  });
}

check('translate-web/bodies/json-mapping/proto-field-names-accepted', GATEWAY, async (t, c) => {
  const { s, g } = await stubbed(c);
  const marker = `names ${c.id}`;
  const body = { text: marker, source_language: 'en', target_language: 'es', language_format: 'native' };
  const { res, call } = await recorded(g, s, route('translate'), body, marker);
  t.true(succeeded(res), shown(res));
  t.deepEqual(call && asJson(route('translate').rpc.input, call), expected(route('translate').rpc.input, body));
});

check('translate-web/bodies/json-mapping/default-values-emitted', GATEWAY, async (t, c) => {
  const { g } = await stubbed(c);
  const text = `${EMPTY} ${c.id}`;
  for (const [name, body] of [
    ['translate', { text, targetLanguage: 'es' }],
    ['detect', { text }],
    ['synthesize', { text, language: 'en' }],
  ] as const) {
    const r = route(name);
    const res = await postJson(g.http, r, body);
    t.true(succeeded(res), `${r.path}: ${shown(res)}`);
    t.deepEqual(res.json(), toJson(r.rpc.output as DescMessage, create(r.rpc.output as DescMessage), { alwaysEmitImplicit: true }), r.path);
  }
});

check('translate-web/bodies/json-mapping/any-text-reaches-the-service-unchanged', GATEWAY, async (_t, c) => {
  const { s, g } = await stubbed(c);
  const r = route('translate');
  let n = 0;
  await c.property(fc.string({ unit: 'grapheme', maxLength: 60 }), async (text) => {
    const marker = `any text ${c.id} #${n++}:`;
    const { res, call } = await recorded(g, s, r, { text: marker + text, targetLanguage: 'es' }, marker);
    assert.ok(succeeded(res), shown(res));
    assert.ok(call, 'no call reached the service');
    assert.equal(fromBinary(TranslateService.method.translateText.input, call.message).text, marker + text);
  });
});

// ---------------------------------------------------------------- invalid requests

async function refused(c: CaseContext) {
  const s = await sharedStub('invalid', markedHandler);
  return { s, g: await sharedGateway(c, 'invalid', { grpcUrl: s.address }) };
}

check('translate-web/bodies/invalid-request/415-when-not-json', GATEWAY, async (t, c) => {
  const { s, g } = await refused(c);
  const sent = Date.now();
  const res = await g.http.request({ method: 'POST', path: '/api/translate', headers: { 'content-type': 'text/plain' }, body: '{"text":"Hi","targetLanguage":"es"}' });
  t.is(res.status, 415, shown(res));
  t.is(errorCode(res), 'INVALID_ARGUMENT', shown(res));
  t.is(serviceCalls(s, sent).length, 0, 'calls reached the service');
});

for (const [name, path, body] of [
  ['malformed-json', '/api/translate', '{"text": "Hi",'],
  ['array-body', '/api/detect', '["Hi"]'],
  ['wrong-type', '/api/translate', '{"text": 5, "targetLanguage": "es"}'],
  ['invalid-base64', '/api/transcribe', '{"audioData": "***not base64***"}'],
  ['unknown-field', '/api/detect', '{"text": "Hi", "colour": "red"}'],
] as const) {
  check(`translate-web/bodies/invalid-request/400-${name}`, GATEWAY, async (t, c) => {
    const { s, g } = await refused(c);
    const sent = Date.now();
    const res = await g.http.request({ method: 'POST', path, headers: { 'content-type': 'application/json' }, body });
    t.is(res.status, 400, shown(res));
    t.is(errorCode(res), 'INVALID_ARGUMENT', shown(res));
    t.is(serviceCalls(s, sent).length, 0, 'calls reached the service');
  });
}

check('translate-web/bodies/invalid-request/413-above-72-mib', GATEWAY, async (t, c) => {
  const { s, g } = await refused(c);
  const size = 72 * 1024 * 1024 + 1024;
  const body = Buffer.alloc(size, 'A');
  body.write('{"audioData":"', 0);
  body.write('"}', size - 2);
  c.note(`# the body: {"audioData":"AAAA…"} of ${size} bytes`);
  const sent = Date.now();
  const res = await g.http.request({ method: 'POST', path: '/api/transcribe', headers: { 'content-type': 'application/json' }, body, timeoutMs: 60_000 });
  t.is(res.status, 413, shown(res));
  t.is(errorCode(res), 'RESOURCE_EXHAUSTED', shown(res));
  t.is(serviceCalls(s, sent).length, 0, 'calls reached the service');
});
