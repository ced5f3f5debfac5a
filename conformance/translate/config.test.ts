// The documented configuration keys, seen from outside: a target's description says how it is configured
// (its capabilities and variants), and these cases check the effect each key must have.
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { check } from '../harness/check.ts';
import { fixedPort } from '../harness/fixed-port.ts';
import { connect, facts, freshInstance, speechWav, stagedOn, variantFor } from './target.ts';

/** Texts whose script names one language, so even a script-based detector must get them right. */
const SCRIPT_SAMPLES = [
  { text: 'こんにちは、元気ですか', language: 'ja' },
  { text: '안녕하세요 반갑습니다', language: 'ko' },
  { text: 'Καλημέρα σε όλους', language: 'el' },
];

check('translate/service/default-port/listens-on-5100', { needs: ['default-port', 'launch'], applicable: (c) => fixedPort(c, 5100) }, async (t, c) => {
  // An instance of the case's own (started without a port): the port is free again when the case (holding
  // it) ends.
  const { client } = await freshInstance(c, 'default-port');
  const out = await client.call(TranslateService.method.getCapabilities, {});
  t.is(out.codeName, 'OK', out.message);
});

check('translate/config/auto-detect/absent-key-uses-heuristic', { needs: stagedOn('auto-detect-absent') }, async (t, c) => {
  const client = await connect(c, variantFor('auto-detect-absent'));
  for (const { text, language } of SCRIPT_SAMPLES) {
    const out = await client.call(TranslateService.method.detectLanguage, { text });
    t.is(out.codeName, 'OK', out.message);
    t.is(out.response?.language.split('-')[0], language, text);
    // The heuristic detector gives no score.
    t.is(out.response?.probability, 0, text);
  }
});

check('translate/config/audio-to-text/absent-means-no-stt', { needs: stagedOn('stt-unconfigured') }, async (t, c) => {
  const client = await connect(c, variantFor('stt-unconfigured'));
  const caps = await client.call(TranslateService.method.getCapabilities, {});
  t.is(caps.response?.sttAvailable, false, caps.message);
  // A valid WAV of speech: only the missing STT can refuse it (which check runs first is not stated).
  const out = await client.call(TranslateService.method.transcribeAudio, { audioData: speechWav() });
  t.is(out.codeName, 'FAILED_PRECONDITION', out.message);
});

check('translate/config/text-to-audio/empty-map-means-no-voice', { needs: stagedOn('tts-unconfigured') }, async (t, c) => {
  const client = await connect(c, variantFor('tts-unconfigured'));
  const caps = await client.call(TranslateService.method.getCapabilities, {});
  t.deepEqual(caps.response?.availableVoices, []);
  // Speed 1: the effect of speed 0 is not stated (it may be refused, before or after the voice lookup).
  const out = await client.call(TranslateService.method.synthesizeSpeech, { text: 'Hello', language: facts.pair.source, speed: 1 });
  t.is(out.codeName, 'FAILED_PRECONDITION', out.message);
});

check('translate/config/allowed-models/listed-usable-unlisted-refused', { needs: ['model-not-allowed'] }, async (t, c) => {
  const client = await connect(c);
  const { source, target, text } = facts.pair;
  const allowed = await client.call(TranslateService.method.translateText, { text, sourceLanguage: source, targetLanguage: target, model: facts.defaultModel });
  t.is(allowed.codeName, 'OK', allowed.message);
  const refused = await client.call(TranslateService.method.translateText, { text, sourceLanguage: source, targetLanguage: target, model: facts.notAllowedModel! });
  t.is(refused.codeName, 'PERMISSION_DENIED', refused.message);
});
