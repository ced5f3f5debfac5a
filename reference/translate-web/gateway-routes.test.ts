// Each route end to end on a real translation reference: the 200 body equals the direct gRPC answer in the
// protobuf JSON mapping and matches the OpenAPI document's schema; service errors keep code and message.
import { create, type DescMessage, type DescMethodUnary, type MessageInitShape, toJson } from '@bufbuild/protobuf';
import test from 'ava';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { startTestServer, type TestServer } from '../translate/grpc/test-server.ts';
import { isBase64 } from './request-decoder.ts';
import { ROUTES } from './routes.ts';
import { postJson, startGateway, type TestGateway } from './test-gateway.ts';

const TRANSLATION = {
  Models: { pseudo: { adapter: 'pseudo' }, apertium: { adapter: 'apertium' } },
  DefaultModel: 'pseudo',
  AudioToText: { engine: 'pocketsphinx' },
  TextToAudio: { en: { engine: 'espeak-ng', voice: 'en-us' }, es: { engine: 'espeak-ng' } },
};

let server: TestServer;
let gateway: TestGateway;
let validateOutput: (name: string, body: unknown) => boolean;

test.before(async () => {
  // apertium is defined but not allowed: asking for it is PERMISSION_DENIED.
  server = await startTestServer(TRANSLATION, { env: { AllowedModels: '["pseudo"]' } });
  gateway = await startGateway({ TRANSLATE_GRPC_URL: `127.0.0.1:${server.port}` });
  const document = await (await fetch(`${gateway.url}/api/openapi.json`)).json();
  const ajv = new Ajv2020({ strict: false, formats: { byte: isBase64 } });
  ajv.addSchema(document, 'openapi.json');
  validateOutput = (name, body) => ajv.validate(`openapi.json#/components/schemas/${name}`, body);
});

test.after.always(async () => {
  await gateway?.stop();
  server?.stop();
});

const route = (rpc: DescMethodUnary) => ROUTES.find((r) => r.rpc === rpc)!;

/** The route's answer (the request sent in the protobuf JSON mapping) next to the direct call's, as JSON. */
async function both<I extends DescMessage, O extends DescMessage>(rpc: DescMethodUnary<I, O>, body: MessageInitShape<I> & object) {
  const { path, method } = route(rpc);
  const json = toJson(rpc.input, create(rpc.input, body));
  const response = method === 'GET' ? await fetch(gateway.url + path) : await postJson(gateway.url + path, json);
  const direct = toJson(rpc.output, await server.call(rpc, body), { alwaysEmitImplicit: true });
  return { response, json: await response.json(), direct };
}

const m = TranslateService.method;

test('GET /api/capabilities answers GetCapabilities', async (t) => {
  const { response, json, direct } = await both(m.getCapabilities, {});
  t.is(response.status, 200);
  t.is(response.headers.get('content-type'), 'application/json');
  t.deepEqual(json, direct);
  t.deepEqual(json, { availableVoices: ['en', 'es'], availableModels: ['pseudo'], sttAvailable: true, ttsAvailable: true });
  t.true(validateOutput('GetCapabilitiesResponse', json));
});

test('POST /api/translate answers TranslateText; default fields are present', async (t) => {
  const { response, json, direct } = await both(m.translateText, { text: 'Hello world', sourceLanguage: 'en', targetLanguage: 'es' });
  t.is(response.status, 200);
  t.deepEqual(json, direct);
  t.deepEqual(json, { translatedText: '[spa] Ĥéļļö ŵöŕļð', detectedLanguage: '', modelUsed: 'pseudo' });
  t.true(validateOutput('TranslateTextResponse', json));
});

test('POST /api/translate takes proto field names too', async (t) => {
  const response = await postJson(`${gateway.url}/api/translate`, { text: 'Hello', source_language: 'auto', target_language: 'de', language_format: 'bcp47' });
  t.is(response.status, 200);
  const direct = toJson(m.translateText.output, await server.call(m.translateText, { text: 'Hello', sourceLanguage: 'auto', targetLanguage: 'de', languageFormat: 'bcp47' }), { alwaysEmitImplicit: true });
  t.deepEqual(await response.json(), direct);
});

test('POST /api/detect answers DetectLanguage', async (t) => {
  const { response, json, direct } = await both(m.detectLanguage, { text: 'Das ist ein kleines Haus mit einem großen Garten.' });
  t.is(response.status, 200);
  t.deepEqual(json, direct);
  t.is(typeof json.probability, 'number');
  t.true(validateOutput('DetectLanguageResponse', json));
});

test('POST /api/localize answers TranslateLocalization with json as a string', async (t) => {
  const file = JSON.stringify({ greeting: 'Hello {name}', nested: { items: ['One', 'Two'], count: 3 } });
  const { response, json, direct } = await both(m.translateLocalization, { json: file, sourceLanguage: 'en', targetLanguage: 'fr' });
  t.is(response.status, 200);
  t.deepEqual(json, direct);
  t.is(typeof json.json, 'string');
  t.is(json.stringsTranslated, 3);
  t.true(validateOutput('TranslateLocalizationResponse', json));
});

test('speech routes: synthesize, transcribe and translate-audio answer their RPCs; audio is base64', async (t) => {
  const speech = await both(m.synthesizeSpeech, { text: 'One two three four five.', language: 'en', speed: 0.75 });
  t.is(speech.response.status, 200);
  t.deepEqual(speech.json, speech.direct);
  t.is(Buffer.from(speech.json.audioData, 'base64').subarray(0, 4).toString('latin1'), 'RIFF');
  t.true(validateOutput('SynthesizeSpeechResponse', speech.json));

  const audioData = Buffer.from(speech.json.audioData, 'base64');
  const transcribed = await both(m.transcribeAudio, { audioData, language: 'en' });
  t.is(transcribed.response.status, 200);
  t.deepEqual(transcribed.json, transcribed.direct);
  t.true(transcribed.json.segments.length > 0);
  t.true(validateOutput('TranscribeAudioResponse', transcribed.json));

  const translated = await both(m.translateAudio, { audioData, sourceLanguage: 'en', targetLanguage: 'es' });
  t.is(translated.response.status, 200);
  t.deepEqual(translated.json, translated.direct);
  t.true(validateOutput('TranslateAudioResponse', translated.json));
});

test('audio as unpadded URL-safe base64 is accepted too (the mapping allows it)', async (t) => {
  const speech = await server.call(m.synthesizeSpeech, { text: 'Yes', language: 'en' });
  const response = await postJson(`${gateway.url}/api/transcribe`, { audioData: Buffer.from(speech.audioData).toString('base64url') });
  t.is(response.status, 200);
  t.deepEqual(await response.json(), toJson(m.transcribeAudio.output, await server.call(m.transcribeAudio, { audioData: speech.audioData }), { alwaysEmitImplicit: true }));
});

/** The service's status message as the gateway must pass it on: the test client prefixes the address. */
async function directError(call: Promise<unknown>): Promise<string> {
  const err = await call.then(
    () => new Error('no error'),
    (e: Error) => e,
  );
  return err.message.replace(`127.0.0.1:${server.port}: `, '');
}

const errorCases = [
  { name: 'unknown model', rpc: m.translateText, body: { text: 'Hi', targetLanguage: 'es', model: 'nope' }, status: 400, code: 'INVALID_ARGUMENT' },
  { name: 'model not allowed', rpc: m.translateText, body: { text: 'Hi', targetLanguage: 'es', model: 'apertium' }, status: 403, code: 'PERMISSION_DENIED' },
  { name: 'invalid JSON to localize', rpc: m.translateLocalization, body: { json: '{', sourceLanguage: 'en', targetLanguage: 'es' }, status: 400, code: 'INVALID_ARGUMENT' },
  { name: 'no voice for the language', rpc: m.synthesizeSpeech, body: { text: 'Salut', language: 'fr' }, status: 400, code: 'FAILED_PRECONDITION' },
  { name: 'unsupported language_format', rpc: m.detectLanguage, body: { text: 'Hello', languageFormat: 'flores200' }, status: 400, code: 'INVALID_ARGUMENT' },
] as const;

for (const c of errorCases) {
  test(`service error: ${c.name} → ${c.status} ${c.code}, message unchanged`, async (t) => {
    const response = await postJson(gateway.url + route(c.rpc).path, c.body);
    t.is(response.status, c.status);
    t.is(response.headers.get('content-type'), 'application/json');
    const message = await directError(server.call(c.rpc as DescMethodUnary, c.body as never));
    t.deepEqual(await response.json(), { error: { code: c.code, message } });
  });
}
