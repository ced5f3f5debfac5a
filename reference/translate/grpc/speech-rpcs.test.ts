// The speech RPCs end to end on a real server: espeak-ng speaks, PocketSphinx transcribes, Apertium
// translates in between.
import test from 'ava';
import { TranslateService } from '../../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { decodeWav } from '../audio/wav.ts';
import { startTestServer, type TestServer } from './test-server.ts';

const TRANSLATION = {
  Models: { apertium: { adapter: 'apertium' } },
  AudioToText: { engine: 'pocketsphinx' },
  TextToAudio: { en: { engine: 'espeak-ng', voice: 'en-us', speakers: ['f3', 'm3'] }, es: { engine: 'espeak-ng' } },
};

let server: TestServer;

test.before(async () => {
  server = await startTestServer(TRANSLATION);
});

test.after.always(() => server?.stop());

const call: TestServer['call'] = (method, init) => server.call(method, init);

test('capabilities report STT and the TTS map keys', async (t) => {
  const caps = await call(TranslateService.method.getCapabilities, {});
  t.true(caps.sttAvailable);
  t.true(caps.ttsAvailable);
  t.deepEqual(caps.availableVoices, ['en', 'es']);
});

test('English text → SynthesizeSpeech → TranscribeAudio gives recognisable words', async (t) => {
  const speech = await call(TranslateService.method.synthesizeSpeech, { text: 'Hello world. Good morning.', language: 'en-US', speed: 0.8 });
  t.is(speech.sampleRate, 22050);
  t.is(decodeWav(speech.audioData).sampleRate, 22050);
  const heard = await call(TranslateService.method.transcribeAudio, { audioData: speech.audioData });
  t.regex(heard.fullText, /\b(hello|world|good|morning)\b/, heard.fullText);
  t.is(heard.fullText, heard.segments.map((s) => s.text).join(' '));
  t.is(heard.detectedLanguage, 'en');
});

test('TranslateAudio en → es gives Spanish text and Spanish speech', async (t) => {
  const speech = await call(TranslateService.method.synthesizeSpeech, { text: 'Good morning. The house is big.', language: 'en', speed: 0.8 });
  const out = await call(TranslateService.method.translateAudio, { audioData: speech.audioData, sourceLanguage: 'en', targetLanguage: 'es' });
  t.not(out.transcription, '');
  t.not(out.translatedText, '');
  t.not(out.translatedText, out.transcription);
  t.is(out.sampleRate, 22050);
  t.true(decodeWav(out.translatedAudio).channels[0]!.length > 22050 / 2, 'less than half a second of speech');
  t.log(`heard "${out.transcription}" → "${out.translatedText}"`);
});

test('speakers: a named one works, an unknown one is INVALID_ARGUMENT; no voice → FAILED_PRECONDITION', async (t) => {
  const ok = await call(TranslateService.method.synthesizeSpeech, { text: 'Hi', language: 'en', voice: 'f3' });
  t.true(ok.audioData.length > 44);
  const unknown = await t.throwsAsync(call(TranslateService.method.synthesizeSpeech, { text: 'Hi', language: 'en', voice: 'zz' }));
  t.is((unknown as { code?: string }).code, 'INVALID_ARGUMENT');
  const none = await t.throwsAsync(call(TranslateService.method.synthesizeSpeech, { text: 'Hi', language: 'fr' }));
  t.is((none as { code?: string }).code, 'FAILED_PRECONDITION');
});

test('blank text is a valid WAV of zero samples', async (t) => {
  const out = await call(TranslateService.method.synthesizeSpeech, { text: '  ', language: 'es' });
  t.is(out.audioData.length, 44);
  t.is(Buffer.from(out.audioData).readUInt32LE(40), 0);
});
