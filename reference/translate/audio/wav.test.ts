import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import fc from 'fast-check';
import wavefile from 'wavefile';
import { ServiceError } from '../core/errors.ts';
import { EspeakVoice } from '../speech/espeak-voice.ts';
import { REJECTION_DB, resample } from './resample.ts';
import { levelDb, measureTone, sine, soxResample } from './resample-test-support.ts';
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

// The samples are read and written here, not by wavefile: the same numbers as wavefile's own reading (its
// getSamples, scaled as before) and the same bytes as its writing, for every layout and any sample values.
const DEPTH_CODES = ['8', '16', '24', '32', '32f'] as const;

test('property: samples read from the bytes are exactly those wavefile unpacks', (t) => {
  fc.assert(
    fc.property(fc.constantFrom(...DEPTH_CODES), fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 40 }), fc.integer(), (depth, channels, frames, seed) => {
      const bits = depth === '32f' ? 32 : Number(depth);
      const bytes = new Uint8Array(frames * channels * (bits / 8));
      let x = seed >>> 0;
      for (let i = 0; i < bytes.length; i++) {
        x = (Math.imul(x, 1103515245) + 12345) >>> 0;
        bytes[i] = x >>> 24;
      }
      const wav = new WaveFile();
      wav.fromScratch(channels, 16000, depth, new (depth === '32f' ? Float32Array : Int32Array)(0));
      (wav.data as { samples: Uint8Array }).samples = bytes;
      const theirs = wav.getSamples(false, Float64Array) as unknown as Float64Array | Float64Array[];
      const scale = 2 ** (bits - 1);
      const offset = bits === 8 ? 128 : 0;
      const clip = (v: number) => (v >= 1 ? 1 : v <= -1 ? -1 : Number.isNaN(v) ? 0 : v);
      const expected = (channels === 1 ? [theirs as Float64Array] : (theirs as Float64Array[])).map((c) => Float32Array.from(c, depth === '32f' ? clip : (v) => (v - offset) / scale));
      t.deepEqual(decodeWav(wav.toBuffer()).channels, expected);
    }),
    { numRuns: 300 },
  );
});

test('property: 16-bit output is byte for byte what wavefile writes', (t) => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: -32768, max: 32767 }), { maxLength: 64 }), fc.integer({ min: 1000, max: 384000 }), (values, rate) => {
      const pcm = Int16Array.from(values);
      const theirs = new WaveFile();
      theirs.fromScratch(1, rate, '16', pcm);
      t.deepEqual(encodeWav16(pcm, rate), theirs.toBuffer());
    }),
  );
});

test('property: float samples become 16-bit as before (clipped, rounded, NaN as 0)', (t) => {
  fc.assert(
    fc.property(fc.array(fc.float({ noDefaultInfinity: false }), { maxLength: 64 }), (values) => {
      const samples = Float32Array.from(values);
      const theirs = new WaveFile();
      theirs.fromScratch(1, 16000, '16', Int16Array.from(samples, (s) => Math.round(Math.max(-1, Math.min(1, s)) * 32767)));
      t.deepEqual(encodeWav16(samples, 16000), theirs.toBuffer());
    }),
  );
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
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
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

// The response sox's default (high) quality gives, which the resampler matches: flat to 90% of the lower
// Nyquist frequency, -3 dB at 95% (sox: -2.85 dB), and aliases and images at least 125 dB down.
const FLAT_TO = 0.9;
const FLAT_WITHIN_DB = 0.01;
const MIN_REJECTION_DB = 125;
const TONE_SECONDS = 0.5;

// Rate pairs through both paths: the frequency-domain one (ratios of 2, 3, 5 and 7: every common rate) and
// the two-stage fallback, with interpolated phases (22051 Hz: 16000 of them) and with the input doubled in
// rate first (11011 Hz).
const RATE_PAIRS = [
  [22050, 16000],
  [44100, 16000],
  [48000, 16000],
  [8000, 16000],
  [16000, 44100],
  [22051, 16000],
  [11011, 16000],
] as const;

test('the design rejection covers the 125 dB the tests ask', (t) => {
  t.true(REJECTION_DB >= MIN_REJECTION_DB);
});

for (const [from, to] of RATE_PAIRS) {
  const nyquist = Math.min(from, to) / 2;
  const skip = Math.round(to * 0.05);

  test(`${from} -> ${to} Hz: flat within ${FLAT_WITHIN_DB} dB to ${FLAT_TO * 100}% of ${nyquist} Hz, anything else ${MIN_REJECTION_DB} dB down`, async (t) => {
    for (const fraction of [0.02, 0.25, 0.5, 0.75, FLAT_TO]) {
      const frequency = fraction * nyquist;
      const { gainDb, residualDb } = measureTone(await resample(sine(frequency, from, TONE_SECONDS), from, to), frequency, to, 0.5, skip);
      t.true(Math.abs(gainDb) <= FLAT_WITHIN_DB, `${frequency} Hz: gain ${gainDb} dB`);
      t.true(residualDb <= -MIN_REJECTION_DB, `${frequency} Hz: residual ${residualDb} dB`);
    }
  });

  test(`${from} -> ${to} Hz: -3 dB at 95% of ${nyquist} Hz, as sox`, async (t) => {
    const frequency = 0.95 * nyquist;
    const input = sine(frequency, from, TONE_SECONDS);
    const ours = measureTone(await resample(input, from, to), frequency, to, 0.5, skip).gainDb;
    const sox = measureTone(soxResample(input, from, to), frequency, to, 0.5, skip).gainDb;
    t.true(ours > -3.3 && ours < -2.5, `ours ${ours} dB`);
    t.true(Math.abs(ours - sox) < 0.2, `ours ${ours} dB, sox ${sox} dB`);
  });
}

for (const [from, to] of RATE_PAIRS.filter(([from, to]) => from > to)) {
  test(`${from} -> ${to} Hz: tones above the new Nyquist frequency are at least ${MIN_REJECTION_DB} dB down`, async (t) => {
    const skip = Math.round(to * 0.05);
    for (const fraction of [1.01, 1.05, 1.2, 1.35]) {
      const frequency = (fraction * to) / 2;
      const level = levelDb(await resample(sine(frequency, from, TONE_SECONDS), from, to), 0.5, skip);
      t.true(level <= -MIN_REJECTION_DB, `${frequency} Hz: ${level} dB`);
    }
  });
}

test('output lengths are round(n·to/from), within 2 samples of sox', async (t) => {
  for (const [from, to] of RATE_PAIRS) {
    for (const n of [1, 2, 3, 1000, 1001, 1003, 4567]) {
      const input = sine(440, from, n / from);
      const ours = await resample(input, from, to);
      t.is(ours.length, Math.round((n * to) / from), `${n} samples ${from} -> ${to}`);
      const sox = soxResample(input, from, to).length;
      t.true(Math.abs(ours.length - sox) <= 2, `${n} samples ${from} -> ${to}: ${ours.length} vs sox ${sox}`);
    }
  }
});

test('espeak-ng speech 22050 -> 16000 Hz agrees with sox to within 0.1% of its level', async (t) => {
  const voice = new EspeakVoice('en-us', ['f3']);
  const speech = await voice.synthesize('The weather was calm this morning, so we walked to the old harbour before breakfast.', { speed: 1, speaker: undefined });
  const ours = await resample(speech, voice.sampleRate, 16000);
  const theirs = soxResample(speech, voice.sampleRate, 16000);
  t.true(Math.abs(ours.length - theirs.length) <= 2, `${ours.length} vs ${theirs.length}`);
  let [error, power] = [0, 0];
  for (let i = 0; i < Math.min(ours.length, theirs.length); i++) {
    error += (ours[i]! - theirs[i]!) ** 2;
    power += theirs[i]! ** 2;
  }
  const db = 10 * Math.log10(error / power);
  t.true(db < -60, `difference ${db} dB`);
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
