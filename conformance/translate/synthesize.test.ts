// SynthesizeSpeech: a complete 16-bit PCM WAV whose rate is the response's sample_rate, the voice found in
// the TTS map for the request's language, speakers of a multi-speaker voice, the speed multiplier, the
// phonemizer precondition; and (informational) the reference's choices for speed 0, blank text, unknown
// speakers and missing voice files. Cases are not-applicable when GetCapabilities reports tts_available false; voices come from its list.
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import type { CaseContext } from '../harness/case-context.ts';
import { check } from '../harness/check.ts';
import type { GrpcClient } from '../harness/grpc-client.ts';
import { capabilities, connect, facts, listedVoices, speechOn, stagedOn, variantFor } from './target.ts';
import { inspectWav, readWav } from './wav-check.ts';

const M = TranslateService.method;
const TTS = { applicable: speechOn('tts') };
const TEXT = 'The quick brown fox jumps over the lazy dog.';

function synthesize(client: GrpcClient, language: string, over: { text?: string; speed?: number; voice?: string; languageFormat?: string } = {}) {
  return client.call(M.synthesizeSpeech, { text: over.text ?? TEXT, language, speed: over.speed ?? 1, voice: over.voice ?? '', languageFormat: over.languageFormat ?? '' });
}

/** The TTS map keys the target lists (less a missing voice file's), at least one. */
async function voices(c: CaseContext, client: GrpcClient): Promise<string[]> {
  const keys = await listedVoices(c, client);
  if (keys.length === 0) c.inconclusive('GetCapabilities lists no voice to synthesize with');
  return keys;
}

/** The seconds of audio in a successful answer (the case fails on anything else). */
async function seconds(c: CaseContext, client: GrpcClient, language: string, speed: number): Promise<number> {
  const out = await synthesize(client, language, { speed });
  if (out.codeName !== 'OK') throw new Error(`speed ${speed}: ${out.codeName} ${out.message}`);
  return readWav(c, out.response!.audioData, `the audio at speed ${speed}`).seconds;
}

check('translate/synthesize/rpc/speech-for-text', TTS, async (t, c) => {
  const out = await synthesize(await connect(c), facts.pair.source);
  if (!t.is(out.codeName, 'OK', out.message)) return;
  t.true(readWav(c, out.response!.audioData, 'audio_data').seconds > 0.5, 'a sentence lasts more than half a second');
});

check('translate/synthesize/wav-output/every-voice-riff-16-bit-pcm', TTS, async (t, c) => {
  const client = await connect(c);
  for (const language of await voices(c, client)) {
    const out = await synthesize(client, language);
    t.is(out.codeName, 'OK', `${language}: ${out.message}`);
    t.deepEqual(inspectWav(out.response!.audioData, { pcm16: true }).problems, [], language);
  }
});

check('translate/synthesize/sample-rate/equals-header-rate', TTS, async (t, c) => {
  const client = await connect(c);
  for (const language of await voices(c, client)) {
    const out = await synthesize(client, language);
    if (!t.is(out.codeName, 'OK', `${language}: ${out.message}`)) continue;
    t.is(out.response!.sampleRate, readWav(c, out.response!.audioData, `${language}: audio_data`).sampleRate, language);
  }
});

check('translate/synthesize/tts-map-lookup/listed-voice-speaks', TTS, async (t, c) => {
  const client = await connect(c);
  const listed = await listedVoices(c, client);
  t.not(listed.length, 0, 'tts_available with no voice listed');
  for (const language of listed) {
    const out = await synthesize(client, language, { text: 'One two three.' });
    if (!t.is(out.codeName, 'OK', `${language}: ${out.message}`)) continue;
    t.true(readWav(c, out.response!.audioData, `${language}: audio_data`).frames > 0, `${language}: no samples`);
  }
});

check('translate/synthesize/tts-map-lookup/unlisted-language-refused', TTS, async (t, c) => {
  const client = await connect(c);
  const listed = new Set((await capabilities(c, client)).availableVoices.map((v) => v.split(/[-_]/)[0]!.toLowerCase()));
  const language = ['mt', 'cy', 'eu', 'ga', 'is', 'lb', 'sw', 'yo'].find((l) => !listed.has(l))!;
  const out = await synthesize(client, language);
  t.is(out.codeName, 'FAILED_PRECONDITION', `${language}: ${out.message}`);
});

check('translate/synthesize/phonemizer-required/voice-and-phonemizer-speak', TTS, async (t, c) => {
  const out = await synthesize(await connect(c), facts.pair.source);
  t.is(out.codeName, 'OK', out.message);
});

check('translate/synthesize/phonemizer-required/fails-without-phonemizer', { needs: stagedOn('phonemizer-missing'), applicable: speechOn('tts') }, async (t, c) => {
  const out = await synthesize(await connect(c, variantFor('phonemizer-missing')), facts.pair.source);
  t.not(out.codeName, 'OK', 'synthesis without a phonemizer on the host');
});

check('translate/synthesize/phonemizer-missing-code/failed-precondition-naming-it', { needs: stagedOn('phonemizer-missing'), applicable: speechOn('tts') }, async (t, c) => {
  const out = await synthesize(await connect(c, variantFor('phonemizer-missing')), facts.pair.source);
  t.is(out.codeName, 'FAILED_PRECONDITION', out.message);
  t.regex(out.message, /espeak|phonemi[sz]er/i);
});

check('translate/synthesize/voice-speaker/each-speaker-and-none', { needs: ['multi-speaker-voice'], applicable: speechOn('tts') }, async (t, c) => {
  const client = await connect(c);
  const { language, speakers } = facts.multiSpeakerVoice!;
  const outcomes = await Promise.all(['', ...speakers].map((voice) => synthesize(client, language, { voice })));
  for (const [i, out] of outcomes.entries()) t.is(out.codeName, 'OK', `voice "${['', ...speakers][i]}": ${out.message}`);
  const audio = outcomes.map((o) => Buffer.from(o.response?.audioData ?? []).toString('base64'));
  t.not(audio[1], audio[2], `speakers ${speakers[0]} and ${speakers[1]} gave the same audio`);
});

check('translate/synthesize/speed-multiplier/half-and-double', TTS, async (t, c) => {
  const client = await connect(c);
  const language = facts.pair.source;
  const [slow, normal, fast] = (await Promise.all([0.5, 1, 2].map((speed) => seconds(c, client, language, speed)))) as [number, number, number];
  c.note(`# seconds at speed 0.5 / 1 / 2: ${slow} / ${normal} / ${fast}`);
  t.true(slow / normal > 1.5 && slow / normal < 2.6, `speed 0.5: ${slow} s vs ${normal} s at 1.0`);
  t.true(fast / normal > 0.35 && fast / normal < 0.7, `speed 2: ${fast} s vs ${normal} s at 1.0`);
});

// ---------------------------------------------------------------- the reference's choices (informational)
check('translate/synthesize/zero-speed/same-as-one', TTS, async (t, c) => {
  const client = await connect(c);
  const [zero, one] = [await synthesize(client, facts.pair.source, { speed: 0 }), await synthesize(client, facts.pair.source, { speed: 1 })];
  t.is(zero.codeName, 'OK', zero.message);
  t.is(inspectWav(zero.response!.audioData).frames, inspectWav(one.response!.audioData).frames);
});

check('translate/synthesize/speed-bounds/negative-refused', TTS, async (t, c) => {
  const out = await synthesize(await connect(c), facts.pair.source, { speed: -1 });
  t.is(out.codeName, 'INVALID_ARGUMENT', out.message);
});

check('translate/synthesize/blank-text/empty-wav', TTS, async (t, c) => {
  const out = await synthesize(await connect(c), facts.pair.source, { text: '  ' });
  t.is(out.codeName, 'OK', out.message);
  const wav = inspectWav(out.response!.audioData, { pcm16: true });
  t.deepEqual([wav.problems, wav.frames], [[], 0]);
});

check('translate/synthesize/unknown-speaker/invalid-argument', { needs: ['multi-speaker-voice'], applicable: speechOn('tts') }, async (t, c) => {
  const out = await synthesize(await connect(c), facts.multiSpeakerVoice!.language, { voice: 'no-such-speaker' });
  t.is(out.codeName, 'INVALID_ARGUMENT', out.message);
});

check('translate/synthesize/empty-language/invalid-argument', TTS, async (t, c) => {
  const out = await synthesize(await connect(c), '');
  t.is(out.codeName, 'INVALID_ARGUMENT', out.message);
});

check('translate/synthesize/tts-map-matching/region-falls-back-to-primary', TTS, async (t, c) => {
  const out = await synthesize(await connect(c), `${facts.pair.source}-ZA`);
  t.is(out.codeName, 'OK', out.message);
});

check('translate/errors/model-file-missing/voice-internal', { needs: ['voice-file-missing'], applicable: speechOn('tts') }, async (t, c) => {
  const out = await synthesize(await connect(c), facts.missingFileVoice!);
  t.is(out.codeName, 'INTERNAL', out.message);
});
