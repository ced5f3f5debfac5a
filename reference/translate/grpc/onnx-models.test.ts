// The ONNX Runtime adapters end to end on a real server, with the tiny models the project generates
// (fixtures/translate/models, written by tools/models): a Piper-style voice behind SynthesizeSpeech and an
// encoder–decoder model behind TranslateText, configured as a user would configure real ones.
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { TranslateService } from '../../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { decodeWav } from '../audio/wav.ts';
import { startTestServer, type TestServer } from './test-server.ts';

const MODELS = fileURLToPath(new URL('../../../fixtures/translate/models/', import.meta.url));

const TRANSLATION = {
  Models: {
    pseudo: { adapter: 'pseudo' },
    nllb: { adapter: 'onnx-seq2seq', path: `${MODELS}tiny-seq2seq`, pairs: ['en-es', 'es-en'], languageTokens: { en: 'eng_Latn', es: 'spa_Latn' } },
    gone: { adapter: 'onnx-seq2seq', path: `${MODELS}no-such-model`, pairs: ['en-es'] },
  },
  DefaultModel: 'pseudo',
  TextToAudio: { eo: { engine: 'piper', model: `${MODELS}tiny-piper/tiny-voice.onnx` }, la: { engine: 'piper', model: `${MODELS}none.onnx` } },
};

let server: TestServer;

test.before(async () => {
  server = await startTestServer(TRANSLATION);
});

test.after.always(() => server?.stop());

test('the encoder-decoder model translates both ways, in BCP-47 and in its native codes', async (t) => {
  const M = TranslateService.method;
  const es = await server.call(M.translateText, { text: 'Hello world', sourceLanguage: 'en-US', targetLanguage: 'es', model: 'nllb' });
  t.is(es.translatedText, 'Hola mundo');
  t.is(es.modelUsed, 'nllb');
  const en = await server.call(M.translateText, { text: 'buenos días amigos', sourceLanguage: 'spa_Latn', targetLanguage: 'eng_Latn', model: 'nllb', languageFormat: 'native' });
  t.is(en.translatedText, 'good morning friends');
  const json = await server.call(M.translateLocalization, { json: '{"a":"good morning","b":["big"]}', sourceLanguage: 'en', targetLanguage: 'es', model: 'nllb' });
  t.deepEqual(JSON.parse(json.json), { a: 'buenos días', b: ['grande'] });
});

test('a language pair the model lacks is INVALID_ARGUMENT; a missing model folder is INTERNAL', async (t) => {
  const M = TranslateService.method;
  const pair = await t.throwsAsync(server.call(M.translateText, { text: 'Hello', sourceLanguage: 'en', targetLanguage: 'fr', model: 'nllb' }));
  t.is((pair as { code?: string }).code, 'INVALID_ARGUMENT');
  const gone = await t.throwsAsync(server.call(M.translateText, { text: 'Hello', sourceLanguage: 'en', targetLanguage: 'es', model: 'gone' }));
  t.is((gone as { code?: string }).code, 'INTERNAL');
});

test('the Piper-style voice speaks at its own rate, per speaker and speed; a missing voice file is INTERNAL', async (t) => {
  const M = TranslateService.method;
  const speak = (voice: string, speed: number) => server.call(M.synthesizeSpeech, { text: 'Hello world.', language: 'eo', voice, speed });
  const [low, high, fast] = [await speak('low', 1), await speak('high', 1), await speak('', 2)];
  t.is(low.sampleRate, 22050);
  const samples = (audio: Uint8Array) => decodeWav(audio).channels[0]!;
  t.true(samples(low.audioData).length > 22050 / 4);
  t.notDeepEqual(samples(low.audioData), samples(high.audioData));
  const ratio = samples(fast.audioData).length / samples(low.audioData).length;
  t.true(ratio > 0.4 && ratio < 0.6, `speed 2: ${ratio} of the length`);
  const missing = await t.throwsAsync(server.call(M.synthesizeSpeech, { text: 'Salve', language: 'la' }));
  t.is((missing as { code?: string }).code, 'INTERNAL');
  t.regex(server.stderr(), /^model loaded: tts eo$/m);
});
