// Measuring a resampler for tests: pure tones in, the tone's gain and everything else out; and sox, the
// independent resampler to compare with, run on the same float samples.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import wavefile from 'wavefile';
import { decodeWav, mixToMono } from './wav.ts';

const { WaveFile } = wavefile;

export function sine(frequency: number, rate: number, seconds: number, amplitude = 0.5): Float32Array {
  const out = new Float32Array(Math.round(rate * seconds));
  for (let i = 0; i < out.length; i++) out[i] = amplitude * Math.sin((2 * Math.PI * frequency * i) / rate);
  return out;
}

export interface ToneMeasure {
  /** Level of the sinusoid at the tone's frequency, dB re the input amplitude. */
  gainDb: number;
  /** Level of everything else (aliases, images, noise), dB re the input tone's power. */
  residualDb: number;
}

/**
 * The least-squares sinusoid at `frequency` in y, and what is left, away from the first and last `skip`
 * samples (where the filter meets the silence around the signal).
 */
export function measureTone(y: Float32Array, frequency: number, rate: number, amplitude: number, skip: number): ToneMeasure {
  let ss = 0;
  let cc = 0;
  let sc = 0;
  let ys = 0;
  let yc = 0;
  const w = (2 * Math.PI * frequency) / rate;
  for (let i = skip; i < y.length - skip; i++) {
    const s = Math.sin(w * i);
    const c = Math.cos(w * i);
    ss += s * s;
    cc += c * c;
    sc += s * c;
    ys += y[i]! * s;
    yc += y[i]! * c;
  }
  const det = ss * cc - sc * sc;
  const a = (ys * cc - yc * sc) / det;
  const b = (yc * ss - ys * sc) / det;
  let rest = 0;
  for (let i = skip; i < y.length - skip; i++) rest += (y[i]! - a * Math.sin(w * i) - b * Math.cos(w * i)) ** 2;
  const n = y.length - 2 * skip;
  return { gainDb: 20 * Math.log10(Math.hypot(a, b) / amplitude), residualDb: 10 * Math.log10(rest / n / (amplitude ** 2 / 2)) };
}

/** Power of y away from its edges, dB re a sinusoid of `amplitude`. */
export function levelDb(y: Float32Array, amplitude: number, skip: number): number {
  let sum = 0;
  for (let i = skip; i < y.length - skip; i++) sum += y[i]! ** 2;
  return 10 * Math.log10(sum / (y.length - 2 * skip) / (amplitude ** 2 / 2));
}

/** `sox in.wav -r <to> out.wav` at its default (high) quality, in and out as 32-bit float so nothing dithers. */
export function soxResample(samples: Float32Array, from: number, to: number): Float32Array {
  const dir = mkdtempSync(join(tmpdir(), 'sox-resample-'));
  try {
    const wav = new WaveFile();
    wav.fromScratch(1, from, '32f', samples);
    writeFileSync(join(dir, 'in.wav'), wav.toBuffer());
    execFileSync('sox', [join(dir, 'in.wav'), '-e', 'floating-point', '-b', '32', join(dir, 'out.wav'), 'rate', String(to)], { stdio: 'ignore' });
    return mixToMono(decodeWav(readFileSync(join(dir, 'out.wav'))));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
