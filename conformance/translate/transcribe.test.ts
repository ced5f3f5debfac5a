// TranscribeAudio on the golden speech of fixtures/translate/speech (one utterance in many WAV layouts):
// recognisable words from every layout, segment times in seconds of the input, full_text as the joined
// segments, the language hint and detected_language format, the reserved audio_format; and
// (informational) the reference's exact transcriptions and its choices for silence and bad WAVs.
// Cases are not-applicable when GetCapabilities reports stt_available false.
import { parse } from 'bcp-47';
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { PAD_SECONDS, type SpeechFixture, speechFile, speechGolden } from '../../tools/fixtures/translate-speech.ts';
import type { CaseContext } from '../harness/case-context.ts';
import { check } from '../harness/check.ts';
import type { GrpcClient } from '../harness/grpc-client.ts';
import { sharedAnswer } from './shared-answers.ts';
import { connect, SPEECH_CALL, SPEECH_CASE_MS, speechOn } from './target.ts';
import { asPcm16, makeWav, repeatWav } from './wav-check.ts';

const M = TranslateService.method;
const STT = { applicable: speechOn('stt'), timeoutMs: SPEECH_CASE_MS };
const golden = speechGolden();
const base = golden.find((f) => f.encoding === 's16' && f.channels === 1 && f.leadingSilence === 0)!;
const padded = golden.find((f) => f.leadingSilence > 0)!;
/** Every golden layout as 16-bit PCM (the others converted, at their rate and channel count): any rate and
 * channel count must be accepted; which sample encodings is not stated (translate/transcribe/wav-encodings). */
const layouts16 = golden.map((f) => (f.encoding === 's16' ? f : { ...f, encoding: 's16', converted: true }));
/** The golden files in another encoding than 16-bit PCM, as they are. */
const otherEncodings = golden.filter((f) => f.encoding !== 's16');
/** The rate from which recognisable words are required: narrowband audio lacks what wideband models hear. */
const WIDEBAND = 16_000;
/** Slack on times: engines frame audio in 10–25 ms steps. */
const FRAME = 0.05;

function transcribe(
  c: CaseContext,
  client: GrpcClient,
  fixture: SpeechFixture & { converted?: boolean },
  over: { language?: string; audioFormat?: string; languageFormat?: string } = {},
) {
  const request = { file: fixture.converted ? `${fixture.file} as 16-bit PCM` : fixture.file, language: 'en', audioFormat: 'wav', languageFormat: '', ...over };
  const audioData = fixture.converted ? asPcm16(speechFile(fixture.file)) : speechFile(fixture.file);
  return sharedAnswer(c, request, () => client.call(M.transcribeAudio, { ...request, audioData }, SPEECH_CALL));
}

/** The words of the utterance a fixture speaks (lower case, without punctuation). */
function wordsOf(fixture: SpeechFixture): Set<string> {
  return new Set(fixture.spoken.toLowerCase().match(/[a-z']+/g));
}

/** How many of the utterance's words a transcription contains. */
function heard(fixture: SpeechFixture, text: string): number {
  const words = wordsOf(fixture);
  return new Set(text.toLowerCase().match(/[a-z']+/g)?.filter((w) => words.has(w))).size;
}

check('translate/transcribe/rpc/recognises-speech', STT, async (t, c) => {
  const out = await transcribe(c, await connect(c), base);
  t.is(out.codeName, 'OK', out.message);
  t.true(heard(base, out.response!.fullText) >= 2, `heard "${out.response!.fullText}" for "${[...wordsOf(base)].join(' ')}"`);
});

check('translate/transcribe/any-wav-layout/every-rate-and-channel-count', STT, async (t, c) => {
  const client = await connect(c);
  const outcomes = await Promise.all(layouts16.map((fixture) => transcribe(c, client, fixture)));
  for (const [i, out] of outcomes.entries()) {
    const { file, sampleRate, channels } = layouts16[i]!;
    t.is(out.codeName, 'OK', `${file} (${sampleRate} Hz, ${channels} channels, 16-bit): ${out.message}`);
    // Below 16 kHz the upper half of a wideband recognizer's band is empty: accepted, words not required.
    if (sampleRate >= WIDEBAND) t.true(heard(layouts16[i]!, out.response?.fullText ?? '') >= 2, `${file}: heard "${out.response?.fullText}"`);
  }
});

check('translate/limits/stt-resampling/times-in-seconds-of-the-input', STT, async (t, c) => {
  // Resampled audio keeps its duration: segments fall inside every layout's own duration. Narrowband copies
  // need not be heard (see any-wav-layout): their segments, if any, are held to the same bounds.
  const client = await connect(c);
  const outcomes = await Promise.all(layouts16.map((fixture) => transcribe(c, client, fixture)));
  for (const [i, out] of outcomes.entries()) {
    const { file, duration, sampleRate } = layouts16[i]!;
    t.is(out.codeName, 'OK', `${file}: ${out.message}`);
    const segments = out.response?.segments ?? [];
    if (sampleRate >= WIDEBAND) t.not(segments.length, 0, `${file}: no segment`);
    if (segments.length === 0) continue;
    const last = Math.max(...segments.map((s) => s.endTime));
    t.true(last <= duration + FRAME && last > duration / 3, `${file}: last segment ends at ${last} s of ${duration} s`);
  }
});

check('translate/transcribe/segment-times/seconds-after-leading-silence', STT, async (t, c) => {
  const out = await transcribe(c, await connect(c), padded);
  t.is(out.codeName, 'OK', out.message);
  const segments = out.response?.segments ?? [];
  t.not(segments.length, 0, 'no segment');
  // The speech runs from PAD_SECONDS to the end of the file. Times in seconds from the start of the audio
  // put the speech's end there, in the last half of the utterance at the earliest; times from the start of
  // the speech, or in milliseconds or samples, would not. Where a segment starts (at the speech, or at 0
  // with the silence in it) and how the text is split are left open.
  const speechEnd = PAD_SECONDS + (padded.duration - PAD_SECONDS) / 2;
  const last = Math.max(...segments.map((s) => s.endTime));
  t.true(last >= speechEnd && last <= padded.duration + FRAME, `last segment ends at ${last} s; the speech runs from ${PAD_SECONDS} s to ${padded.duration} s`);
  const first = Math.min(...segments.map((s) => s.startTime));
  t.true(first <= PAD_SECONDS + 0.6, `first segment starts at ${first} s; speech starts at ${PAD_SECONDS} s`);
  for (const s of segments) t.true(s.startTime >= 0 && s.startTime <= s.endTime && s.endTime <= padded.duration + FRAME, JSON.stringify(s));
});

check('translate/transcribe/full-text-join/segments-joined-by-one-space', STT, async (t, c) => {
  const client = await connect(c);
  for (const fixture of [base, padded]) {
    const out = await transcribe(c, client, fixture);
    t.is(out.codeName, 'OK', out.message);
    t.is(out.response!.fullText, out.response!.segments.map((s) => s.text).join(' '), fixture.file);
  }
  // Two utterances with seconds of silence between them: a join needs more than one segment to show.
  const twice = await client.call(M.transcribeAudio, { audioData: repeatWav(speechFile(padded.file), 2), language: 'en' }, SPEECH_CALL);
  t.is(twice.codeName, 'OK', twice.message);
  c.note(`# ${padded.file} twice: ${twice.response!.segments.length} segments`);
  t.is(twice.response!.fullText, twice.response!.segments.map((s) => s.text).join(' '), `${padded.file} twice`);
});

check('translate/transcribe/language-hint/empty-auto-and-code', STT, async (t, c) => {
  const client = await connect(c);
  const hints = ['', 'auto', 'en', 'en-US'];
  const outcomes = await Promise.all(hints.map((language) => transcribe(c, client, base, { language })));
  for (const [i, out] of outcomes.entries()) {
    t.is(out.codeName, 'OK', `language "${hints[i]}": ${out.message}`);
    t.true(heard(base, out.response?.fullText ?? '') >= 2, `language "${hints[i]}": heard "${out.response?.fullText}"`);
  }
});

check('translate/transcribe/audio-format-reserved/empty-and-wav', STT, async (t, c) => {
  const client = await connect(c);
  const [empty, wav] = await Promise.all([transcribe(c, client, base, { audioFormat: '' }), transcribe(c, client, base, { audioFormat: 'wav' })]);
  // Both read the bytes as the WAV they are: the speech is heard either way.
  for (const [format, out] of [['', empty], ['wav', wav]] as const) {
    t.is(out.codeName, 'OK', `audio_format "${format}": ${out.message}`);
    t.true(heard(base, out.response?.fullText ?? '') >= 2, `audio_format "${format}": heard "${out.response?.fullText}"`);
  }
});

check('translate/transcribe/detected-language-format/bcp47-by-default', STT, async (t, c) => {
  const client = await connect(c);
  const formats = ['', 'bcp47'];
  for (const language of ['', 'en-US']) {
    const outcomes = await Promise.all(formats.map((languageFormat) => transcribe(c, client, base, { language, languageFormat })));
    for (const [i, out] of outcomes.entries()) {
      const detected = out.response?.detectedLanguage ?? '';
      t.is(out.codeName, 'OK', out.message);
      // A BCP-47 tag; which language it names with a hint, or from an engine that identifies none, is
      // translate/transcribe/detected-language-source.
      t.truthy(parse(detected).language, `hint "${language}", format "${formats[i]}": detected_language "${detected}" is not a BCP-47 tag`);
    }
  }
});

// ---------------------------------------------------------------- the reference's choices (informational)
check('translate/transcribe/detected-language-source/hint-normalised', STT, async (t, c) => {
  const out = await transcribe(c, await connect(c), base, { language: 'en-US' });
  t.is(out.response?.detectedLanguage, 'en', out.message);
});

check('translate/transcribe/detected-language-source/engine-language-without-hint', STT, async (t, c) => {
  const out = await transcribe(c, await connect(c), base, { language: '' });
  t.is(out.response?.detectedLanguage, 'en', out.message);
});

check('translate/transcribe/segment-order/chronological-within-duration', STT, async (t, c) => {
  const out = await transcribe(c, await connect(c), padded);
  const segments = out.response?.segments ?? [];
  t.not(segments.length, 0, `${out.codeName} ${out.message}`);
  for (const [i, s] of segments.entries()) {
    t.true(s.startTime >= 0 && s.startTime <= s.endTime && s.endTime <= padded.duration + FRAME, JSON.stringify(s));
    if (i > 0) t.true(s.startTime >= segments[i - 1]!.endTime, 'segments overlap or are out of order');
  }
});

check('translate/transcribe/silence/no-segments', STT, async (t, c) => {
  const silence = makeWav(16_000, 1, '16', 16_000).map((b, i) => (i < 44 ? b : 0));
  const out = await (await connect(c)).call(M.transcribeAudio, { audioData: silence });
  t.is(out.codeName, 'OK', out.message);
  t.deepEqual([out.response!.segments.length, out.response!.fullText], [0, '']);
});

check('translate/transcribe/audio-format-other/invalid-argument', STT, async (t, c) => {
  const out = await transcribe(c, await connect(c), base, { audioFormat: 'mp3' });
  t.is(out.codeName, 'INVALID_ARGUMENT', out.message);
});

check('translate/transcribe/wav-encodings/8-24-bit-and-float-accepted', STT, async (t, c) => {
  const client = await connect(c);
  const outcomes = await Promise.all(otherEncodings.map((fixture) => transcribe(c, client, fixture)));
  t.deepEqual(
    outcomes.map((o, i) => `${otherEncodings[i]!.file}: ${o.codeName}`),
    otherEncodings.map((f) => `${f.file}: OK`),
  );
});

check('translate/transcribe/wav-encodings/golden-transcriptions', { needs: ['golden-speech'], ...STT }, async (t, c) => {
  const client = await connect(c);
  const outcomes = await Promise.all(golden.map((fixture) => transcribe(c, client, fixture)));
  t.deepEqual(
    outcomes.map((o, i) => `${golden[i]!.file}: ${o.response?.fullText ?? o.codeName}`),
    golden.map((f) => `${f.file}: ${f.heard.text}`),
  );
});
