// Resampling for any ratio, the fallback when the DFT path's block sizes do not exist (a rate such as
// 22051 Hz makes the reduced ratio's prime factors large): the steep anti-alias filter by fast convolution,
// then band-limited interpolation with a short polyphase kernel at the output instants.
import { FftLowpass } from './fft-lowpass.ts';
import { kaiserLength } from './kaiser-window.ts';
import { PolyphaseStage } from './polyphase-stage.ts';

/** Added to the interpolation kernel's design rejection. */
const KERNEL_MARGIN_DB = 10;

export interface TwoStageInput {
  from: number;
  to: number;
  /** 1, or 2 when the input is doubled in rate (zero-stuffed) before the first stage. */
  upsample: number;
  /** The anti-alias filter at from·upsample Hz, with DC gain `upsample`: odd length, symmetric. */
  taps: Float64Array;
  rejectionDb: number;
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

export class TwoStageResampler {
  readonly #upsample: number;
  readonly #lowpass: FftLowpass;
  readonly #interpolate: PolyphaseStage;
  readonly #halfTaps: number;

  constructor({ from, to, upsample, taps, rejectionDb }: TwoStageInput) {
    const rate = from * upsample;
    this.#upsample = upsample;
    this.#lowpass = new FftLowpass(taps);
    // The kernel's pass band ends where the first stage's stop band begins (the lower Nyquist); its stop
    // band begins at that band's first image. An even half-length: the kernel's inner loop takes four taps
    // at a time. Its own margin: Kaiser's estimate falls a few dB short for kernels this short.
    const stop = Math.min(from, to) / 2 / rate;
    const kernelDb = rejectionDb + KERNEL_MARGIN_DB;
    this.#halfTaps = 2 * Math.ceil(kaiserLength(kernelDb, 1 - 2 * stop) / 4);
    const divisor = gcd(rate, to);
    this.#interpolate = new PolyphaseStage({ up: to / divisor, down: rate / divisor, halfTaps: this.#halfTaps, rejectionDb: kernelDb });
  }

  run(samples: Float32Array, out: Float32Array): void {
    const upsample = this.#upsample;
    // The kernel reaches halfTaps past either end of the input: the low-passed signal is computed there too
    // (its tails), from a copy of the input with that much silence on each side.
    const pad = this.#halfTaps + 1;
    const padded = new Float32Array(samples.length * upsample + 2 * pad);
    for (let i = 0; i < samples.length; i++) padded[pad + i * upsample] = samples[i]!;
    const filtered = new Float64Array(padded.length);
    this.#lowpass.apply(padded, filtered);
    this.#interpolate.run(filtered, pad, out);
  }
}
