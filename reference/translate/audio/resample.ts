// Sample-rate conversion with the response of sox's default ("high") quality. Most rate pairs take the
// frequency-domain path (dft-resampler.ts); a ratio with a prime factor above 7 takes the two-stage one.
// Written here because no npm package fitted: @alexanderolsen/libsamplerate-js ships libsamplerate as asm.js,
// not WebAssembly (about 10x slower than the sox command on 72 s of speech), the speexdsp build
// (@echogarden/speex-resampler-wasm) is slower still at its top quality and rejects aliases by only about
// 100 dB, node-soxr declares Node >= 24 and is a single new release of a native addon, and the native
// libsamplerate addon's prebuilt binary needs a newer libstdc++ than this platform has.
import { DftResampler } from './dft-resampler.ts';
import { kaiserLength, lowpassTaps } from './kaiser-window.ts';
import { TwoStageResampler } from './two-stage-resampler.ts';

export const STT_SAMPLE_RATE = 16_000;

/**
 * The response, as sox's default: flat (within 0.01 dB) to 92% of the lower of the two Nyquist frequencies,
 * -3 dB at 95%, and from 100% on at least 125 dB down, so nothing aliases. The margin over 125 dB covers
 * Kaiser's approximate length estimate.
 */
export const REJECTION_DB = 130;
/** Width of the transition band, ending at the lower Nyquist, as a fraction of it: puts -3 dB at 95%. */
const TRANSITION = 0.086;
/**
 * For the two-stage path: below this ratio the input is doubled in rate first, since the interpolation
 * kernel's transition band (from the kept band to its first image) narrows as the rates draw close.
 */
const MIN_DIRECT_RATIO = 1.25;
/** Distinct rate pairs whose filters stay built: rates come from clients' WAV headers, so bounded. */
const MAX_PLANS = 8;

interface Resampler {
  run(samples: Float32Array, out: Float32Array): void;
}

const plans = new Map<string, Resampler>();

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/** The anti-alias filter at `rate` Hz for a conversion between `from` and `to` Hz. */
function antiAlias(rate: number, from: number, to: number, gain = 1): Float64Array {
  const stop = Math.min(from, to) / 2 / rate;
  const width = TRANSITION * stop;
  return lowpassTaps(stop - width / 2, Math.ceil(kaiserLength(REJECTION_DB, width) / 2), REJECTION_DB, gain);
}

function makePlan(from: number, to: number): Resampler {
  const divisor = gcd(from, to);
  const dft = DftResampler.create({ up: to / divisor, down: from / divisor, taps: antiAlias(from, from, to) });
  if (dft) return dft;
  const upsample = from >= to * MIN_DIRECT_RATIO ? 1 : 2;
  return new TwoStageResampler({ from, to, upsample, taps: antiAlias(from * upsample, from, to, upsample), rejectionDb: REJECTION_DB });
}

function planFor(from: number, to: number): Resampler {
  const key = `${from}>${to}`;
  let plan = plans.get(key);
  if (plan) {
    plans.delete(key);
  } else {
    plan = makePlan(from, to);
    if (plans.size >= MAX_PLANS) plans.delete(plans.keys().next().value!);
  }
  plans.set(key, plan);
  return plan;
}

/** `samples` at `to` Hz: round(length·to/from) of them, the first at the same instant as the input's first. */
export async function resample(samples: Float32Array, from: number, to: number): Promise<Float32Array> {
  for (const [name, rate] of [['from', from], ['to', to]] as const) {
    if (!(Number.isSafeInteger(rate) && rate > 0)) throw new RangeError(`resample: ${name} rate ${rate} is not a positive integer`);
  }
  if (from === to || samples.length === 0) return samples;
  const out = new Float32Array(Math.round((samples.length * to) / from));
  planFor(from, to).run(samples, out);
  return out;
}
