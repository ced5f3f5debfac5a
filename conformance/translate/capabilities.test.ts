// GetCapabilities and the service's shape: the seven unary RPCs at their documented paths.
import type { ExecutionContext } from 'ava';
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import type { CaseContext } from '../harness/case-context.ts';
import { check } from '../harness/check.ts';
import { connect, defaultModelKey, facts, speechWav, stagedOn, variantFor } from './target.ts';

check('translate/capabilities/rpc/empty-request-succeeds', async (t, c) => {
  const client = await connect(c);
  const out = await client.call(TranslateService.method.getCapabilities, {});
  t.is(out.codeName, 'OK', out.message);
});

check('translate/capabilities/available-models/includes-default-model', async (t, c) => {
  const model = defaultModelKey();
  const client = await connect(c);
  const out = await client.call(TranslateService.method.getCapabilities, {});
  t.is(out.codeName, 'OK', out.message);
  t.true(out.response?.availableModels.includes(model), `available_models: ${out.response?.availableModels}`);
});

check('translate/capabilities/available-models/listed-keys-are-allowed', async (t, c) => {
  const client = await connect(c);
  const caps = await client.call(TranslateService.method.getCapabilities, {});
  const models = caps.response?.availableModels ?? [];
  t.true(models.length > 0, 'available_models is empty');
  const { source, target, text } = facts.pair;
  for (const model of models) {
    const out = await client.call(TranslateService.method.translateText, { text, sourceLanguage: source, targetLanguage: target, model });
    t.not(out.codeName, 'PERMISSION_DENIED', `model ${model} is listed but refused: ${out.message}`);
  }
});

check('translate/capabilities/available-models/not-allowed-key-unlisted', { needs: ['model-not-allowed'] }, async (t, c) => {
  const client = await connect(c);
  const caps = await client.call(TranslateService.method.getCapabilities, {});
  t.is(caps.codeName, 'OK', caps.message);
  t.false(caps.response!.availableModels.includes(facts.notAllowedModel!), `${facts.notAllowedModel} is listed`);
});

check('translate/capabilities/tts-available/matches-voice-list', async (t, c) => {
  const client = await connect(c);
  const caps = await client.call(TranslateService.method.getCapabilities, {});
  t.is(caps.codeName, 'OK', caps.message);
  t.is(caps.response!.ttsAvailable, caps.response!.availableVoices.length > 0);
});

check('translate/capabilities/available-voices/one-entry-per-key', async (t, c) => {
  const client = await connect(c);
  const caps = await client.call(TranslateService.method.getCapabilities, {});
  const voices = caps.response?.availableVoices ?? [];
  t.is(new Set(voices).size, voices.length, `duplicates in ${voices}`);
  t.true(voices.every((v) => v.trim() !== ''), 'a blank voice key');
});

check('translate/capabilities/available-voices/empty-without-tts', { needs: stagedOn('tts-unconfigured') }, async (t, c) => {
  const client = await connect(c, variantFor('tts-unconfigured'));
  const caps = await client.call(TranslateService.method.getCapabilities, {});
  t.is(caps.codeName, 'OK', caps.message);
  t.deepEqual(caps.response!.availableVoices, []);
  t.false(caps.response!.ttsAvailable);
});

check('translate/capabilities/stt-available/false-without-stt', { needs: stagedOn('stt-unconfigured') }, async (t, c) => {
  const client = await connect(c, variantFor('stt-unconfigured'));
  const caps = await client.call(TranslateService.method.getCapabilities, {});
  t.is(caps.codeName, 'OK', caps.message);
  t.false(caps.response!.sttAvailable);
});

/** stt_available agrees with what TranscribeAudio answers on one instance (the main one, or a variant). */
async function sttAgrees(t: ExecutionContext, c: CaseContext, variant: string | undefined): Promise<void> {
  const where = variant ?? 'main instance';
  const client = await connect(c, variant);
  const available = await c.need(`GetCapabilities (${where})`, async () => {
    const caps = await client.call(TranslateService.method.getCapabilities, {});
    if (!caps.response) throw new Error(`${caps.codeName}: ${caps.message}`);
    return caps.response.sttAvailable;
  });
  // Without STT a valid WAV of speech must be FAILED_PRECONDITION; with STT an empty audio_data fails for its
  // content, if at all (an empty one spares a recognition), never for a missing STT.
  const out = await client.call(TranslateService.method.transcribeAudio, { audioData: available ? new Uint8Array(0) : speechWav() });
  t.is(out.codeName === 'FAILED_PRECONDITION', !available, `${where}: stt_available=${available}, TranscribeAudio: ${out.codeName} ${out.message}`);
}

check('translate/capabilities/stt-available/agrees-with-transcribe', async (t, c) => {
  await sttAgrees(t, c, undefined);
});

// On the instance without STT too (a variant of its own when the target stages that condition on one).
check('translate/capabilities/stt-available/agrees-with-transcribe-without-stt', { needs: stagedOn('stt-unconfigured') }, async (t, c) => {
  await sttAgrees(t, c, variantFor('stt-unconfigured'));
});
