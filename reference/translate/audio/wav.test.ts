import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import fc from 'fast-check';
import wavefile from 'wavefile';
import { ServiceError } from '../core/errors.ts';
import { resample } from './resample.ts';
import { silence } from './wav-test-support.ts';
import { decodeWav, encodeWav16, MAX_AUDIO_SECONDS, MAX_SAMPLE_RATE, MIN_SAMPLE_RATE, mixToMono } from './wav.ts';

const { WaveFile } = wavefile;

/** A 440 Hz tone as a WAV of the given layout. */
function tone(rate: number, channels: number, bitDepth: string, seconds = 0.5): Uint8Array {
  const frames = Math.round(rate * seconds);
  const isFloat = bitDepth === '32f';
  const bits = isFloat ? 32 : Number(bitDepth);
  const max = isFloat ? 1 : 2 ** (bits - 1) - 1;
  const offset = bits === 8 ? 128 : 0;
  const data = Array.from({ length: channels }, () =>
    Array.from({ length: frames }, (_, i) => Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 0.5 * max * (isFloat ? 1e6 : 1)) / (isFloat ? 1e6 : 1) + offset),
  );
  const wav = new WaveFile();
  wav.fromScratch(channels, rate, bitDepth, channels === 1 ? data[0]! : data);
  return wav.toBuffer();
}

for (const [rate, channels, depth] of [[8000, 1, '8'], [44100, 2, '16'], [48000, 6, '24'], [22050, 1, '32'], [11025, 2, '32f']] as const) {
  test(`decodes ${rate} Hz, ${channels} ch, ${depth}-bit into [-1, 1]`, (t) => {
    const audio = decodeWav(tone(rate, channels, depth));
    t.is(audio.sampleRate, rate);
    t.is(audio.channels.length, channels);
    const peak = Math.max(...mixToMono(audio).map(Math.abs));
    t.true(peak > 0.45 && peak < 0.55, `peak ${peak}`);
  });
}

const bad: [string, Uint8Array][] = [
  ['empty', new Uint8Array(0)],
  ['not RIFF', new TextEncoder().encode('hello, this is not audio at all')],
  ['truncated', tone(16000, 1, '16').subarray(0, 1000)],
  ['a-law', (() => { const w = new WaveFile(tone(8000, 1, '16')); w.toALaw(); return w.toBuffer(); })()],
];
for (const [name, bytes] of bad) {
  test(`${name} is INVALID_ARGUMENT`, (t) => {
    const error = t.throws(() => decodeWav(bytes));
    t.is((error as { code?: string }).code, 'INVALID_ARGUMENT');
  });
}

// A 4 MB file declaring 100 Hz describes 5,243 s of audio: upsampling it once ran the server out of memory.
for (const [name, bytes, words] of [
  ['4 MB at 100 Hz', silence(100, 1, 8, 4 * 2 ** 20), /100 Hz/],
  ['1 Hz', silence(1, 1, 16, 2000), /1 Hz/],
  ['4,000,000,000 Hz', silence(4e9, 1, 16, 2000), /4000000000 Hz/],
  [`${MIN_SAMPLE_RATE} Hz 8-bit mono, one frame over ${MAX_AUDIO_SECONDS} s`, silence(MIN_SAMPLE_RATE, 1, 8, MAX_AUDIO_SECONDS * MIN_SAMPLE_RATE + 1), /1638 s/],
  ['8 kHz 8-bit mono, 30 minutes', silence(8_000, 1, 8, 30 * 60 * 8_000), /1800 s/],
] as const) {
  test(`${name} is INVALID_ARGUMENT naming the rate or the duration`, (t) => {
    const error = t.throws(() => decodeWav(bytes));
    t.is((error as { code?: string }).code, 'INVALID_ARGUMENT');
    t.regex((error as Error).message, words);
  });
}

test('the bounds themselves are accepted', (t) => {
  t.is(decodeWav(silence(MIN_SAMPLE_RATE, 1, 8, MAX_AUDIO_SECONDS * MIN_SAMPLE_RATE)).channels[0]!.length, MAX_AUDIO_SECONDS * MIN_SAMPLE_RATE);
  t.is(decodeWav(silence(MAX_SAMPLE_RATE, 1, 16, 2000)).sampleRate, MAX_SAMPLE_RATE);
});

test('16-bit output has a RIFF header whose sizes match the bytes', (t) => {
  const wav = encodeWav16(new Float32Array([0, 0.5, -0.5, 1]), 22050);
  const view = Buffer.from(wav);
  t.is(view.toString('ascii', 0, 4), 'RIFF');
  t.is(view.readUInt32LE(4), wav.length - 8);
  t.is(view.readUInt32LE(40), 8);
  t.is(view.readUInt16LE(34), 16);
});

test('resampling 44.1 kHz to 16 kHz agrees with sox', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'resample-'));
  const input = tone(44100, 1, '16', 1);
  writeFileSync(join(dir, 'in.wav'), input);
  execFileSync('sox', [join(dir, 'in.wav'), '-r', '16000', join(dir, 'sox.wav')]);
  const ours = await resample(mixToMono(decodeWav(input)), 44100, 16000);
  const theirs = mixToMono(decodeWav(readFileSync(join(dir, 'sox.wav'))));
  t.true(Math.abs(ours.length - theirs.length) <= 2, `${ours.length} vs ${theirs.length}`);
  // Away from the edges the two differ by well under 1% of full scale.
  let worst = 0;
  for (let i = 200; i < Math.min(ours.length, theirs.length) - 200; i++) worst = Math.max(worst, Math.abs(ours[i]! - theirs[i]!));
  t.true(worst < 0.01, `largest difference ${worst}`);
});

// Any bytes, and any damage to a real WAV's header or length: a decoded result within the bounds, or
// INVALID_ARGUMENT — never another error (a RangeError from the parser would be INTERNAL), never a hang.
const damaged = fc
  .tuple(
    fc.constantFrom(...[[8000, 1, '8'], [16000, 2, '16'], [22050, 1, '24'], [11025, 1, '32f']] as const),
    fc.array(fc.tuple(fc.nat(80), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }),
    fc.option(fc.nat(4000), { nil: undefined }),
  )
  .map(([[rate, channels, depth], edits, cut]) => {
    const bytes = Uint8Array.from(tone(rate, channels, depth, 0.05));
    for (const [at, value] of edits) if (at < bytes.length) bytes[at] = value;
    return cut === undefined ? bytes : bytes.subarray(0, cut);
  });

test('decodeWav on any bytes or a damaged WAV: bounded audio or INVALID_ARGUMENT, nothing else', (t) => {
  fc.assert(
    fc.property(fc.oneof(fc.uint8Array({ maxLength: 200 }), damaged), (bytes) => {
      let audio: ReturnType<typeof decodeWav>;
      try {
        audio = decodeWav(bytes);
      } catch (err) {
        if (err instanceof ServiceError && err.code === 'INVALID_ARGUMENT') return;
        throw err;
      }
      const frames = audio.channels[0]?.length ?? 0;
      if (audio.sampleRate < MIN_SAMPLE_RATE || audio.sampleRate > MAX_SAMPLE_RATE) throw new Error(`rate ${audio.sampleRate}`);
      if (frames / audio.sampleRate > MAX_AUDIO_SECONDS) throw new Error(`${frames} frames`);
      for (const channel of audio.channels) for (const s of channel) if (!(s >= -1.0001 && s <= 1.0001)) throw new Error(`sample ${s}`);
    }),
    { numRuns: 2000 },
  );
  t.pass();
});
