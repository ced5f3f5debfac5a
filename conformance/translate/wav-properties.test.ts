// Properties of the speech RPCs over generated WAVs: any sample rate, channel count and bit depth is accepted
// for recognition; a corrupt or truncated header is refused with INVALID_ARGUMENT (informational: the status
// is the reference's choice) and the server keeps answering; synthesized audio is always a RIFF file whose
// sizes match its bytes, whatever the text and speed.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import type { CaseContext } from '../harness/case-context.ts';
import { check } from '../harness/check.ts';
import { connect, listedVoices, SPEECH_CALL, speechOn } from './target.ts';
import { type BitDepth, inspectWav, makeWav } from './wav-check.ts';

const M = TranslateService.method;
const DEPTHS: BitDepth[] = ['8', '16', '24', '32', '32f'];

/** A WAV layout of `depths` and a short length (recognition cost grows with length, not with layout). */
const layout = (depths: BitDepth[]) =>
  fc.record({
    sampleRate: fc.oneof(fc.constantFrom(8000, 11025, 16000, 22050, 44100, 48000, 96000), fc.integer({ min: 4000, max: 96000 })),
    channels: fc.integer({ min: 1, max: 6 }),
    bitDepth: fc.constantFrom(...depths),
    seconds: fc.double({ min: 0.05, max: 0.4, noNaN: true }),
  });

async function layoutsAccepted(c: CaseContext, depths: BitDepth[], numRuns: number): Promise<void> {
  const client = await connect(c);
  await c.property(
    layout(depths),
    async ({ sampleRate, channels, bitDepth, seconds }) => {
      const audio = makeWav(sampleRate, channels, bitDepth, Math.max(1, Math.round(sampleRate * seconds)));
      const out = await client.call(M.transcribeAudio, { audioData: audio, language: 'en' }, SPEECH_CALL);
      assert.equal(out.codeName, 'OK', `${sampleRate} Hz, ${channels} channels, ${bitDepth}-bit: ${out.message}`);
    },
    { numRuns },
  );
}

// Any rate and channel count (16-bit PCM); other sample encodings are translate/transcribe/wav-encodings.
check('translate/transcribe/any-wav-layout/generated-layouts-accepted', { applicable: speechOn('stt'), timeoutMs: 120_000 }, async (_t, c) => {
  await layoutsAccepted(c, ['16'], 10);
});

check('translate/transcribe/wav-encodings/generated-depths-accepted', { applicable: speechOn('stt'), timeoutMs: 120_000 }, async (_t, c) => {
  await layoutsAccepted(
    c,
    DEPTHS.filter((d) => d !== '16'),
    6,
  );
});

/** Ways to break a valid 44-byte-header WAV so that no reading of it is a valid WAV. */
const corruption = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.integer({ min: 0, max: 43 }) }),
  fc.record({ kind: fc.constant('short-data' as const), missing: fc.integer({ min: 1, max: 1000 }) }),
  fc.record({ kind: fc.constant('magic' as const), at: fc.constantFrom(0, 8, 12, 36), bytes: fc.uint8Array({ minLength: 4, maxLength: 4 }) }),
  fc.record({ kind: fc.constant('format' as const), code: fc.integer({ min: 0, max: 0xffff }).filter((f) => ![1, 3, 0xfffe].includes(f)) }),
  fc.record({ kind: fc.constant('bits' as const), bits: fc.integer({ min: 0, max: 64 }).filter((b) => ![8, 16, 24, 32].includes(b)) }),
  fc.record({ kind: fc.constant('zero' as const), field: fc.constantFrom('channels', 'rate') }),
);
type Corruption = typeof corruption extends fc.Arbitrary<infer T> ? T : never;

function corrupt(wav: Uint8Array, how: Corruption): Uint8Array {
  const b = Buffer.from(wav);
  switch (how.kind) {
    case 'truncate':
      return b.subarray(0, how.at);
    case 'short-data':
      return b.subarray(0, b.length - Math.min(how.missing, b.length - 44 - 1));
    case 'magic': {
      const magic = b.toString('latin1', how.at, how.at + 4);
      const bytes = Buffer.from(how.bytes);
      if (bytes.toString('latin1') === magic) bytes[0] = bytes[0]! ^ 0xff;
      bytes.copy(b, how.at);
      return b;
    }
    case 'format':
      b.writeUInt16LE(how.code, 20);
      return b;
    case 'bits':
      b.writeUInt16LE(how.bits, 34);
      return b;
    case 'zero':
      if (how.field === 'channels') b.writeUInt16LE(0, 22);
      else b.writeUInt32LE(0, 24);
      return b;
  }
}

check('translate/transcribe/invalid-wav/corrupt-headers-invalid-argument', { applicable: speechOn('stt'), timeoutMs: 120_000 }, async (t, c) => {
  const client = await connect(c);
  const valid = makeWav(16_000, 1, '16', 4000);
  await c.property(
    corruption,
    async (how) => {
      const out = await client.call(M.transcribeAudio, { audioData: corrupt(valid, how), language: 'en' });
      assert.equal(out.codeName, 'INVALID_ARGUMENT', `${JSON.stringify(how)}: ${out.message}`);
    },
    { numRuns: 40 },
  );
  const after = await client.call(M.getCapabilities, {});
  t.is(after.codeName, 'OK', 'the server still answers afterwards');
});

/** Text to speak: words and punctuation, sometimes odd characters. */
const speakable = fc.oneof(
  fc.array(fc.constantFrom('one', 'two', 'hello', 'world', 'good', 'morning', ',', '.', '?', '42', 'x'), { minLength: 1, maxLength: 12 }).map((w) => w.join(' ')),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }),
);

check('translate/synthesize/wav-output/generated-text-and-speed', { applicable: speechOn('tts'), timeoutMs: 120_000 }, async (_t, c) => {
  const client = await connect(c);
  const voices = await listedVoices(c, client);
  if (voices.length === 0) c.inconclusive('GetCapabilities lists no voice to synthesize with');
  await c.property(
    fc.record({ text: speakable, speed: fc.double({ min: 0.25, max: 4, noNaN: true }), language: fc.constantFrom(...voices) }),
    async ({ text, speed, language }) => {
      const out = await client.call(M.synthesizeSpeech, { text, language, speed });
      assert.equal(out.codeName, 'OK', `${language} at ${speed}: ${out.message}`);
      const wav = inspectWav(out.response!.audioData, { pcm16: true });
      assert.deepEqual(wav.problems, [], `${language} at ${speed}: ${JSON.stringify(text)}`);
      assert.equal(out.response!.sampleRate, wav.sampleRate);
    },
    { numRuns: 25 },
  );
});
