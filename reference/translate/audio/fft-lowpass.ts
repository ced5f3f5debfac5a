// A long linear-phase FIR applied by fast convolution (overlap-save): the resampler's steep anti-alias
// stage, a few hundred to a few thousand taps, at O(log n) work per sample.
import { Fft } from './fft.ts';

/**
 * Transform sizes tried: below, the overlap wastes most of each block; the top one takes the filter of the
 * widest ratio between the sample-rate bounds (hundreds of thousands of taps).
 */
const MIN_FFT_BITS = 8;
const MAX_FFT_BITS = 20;

/** The size whose n·log n per useful output (n - taps + 1 of them per block) is least. */
function bestSize(taps: number): number {
  let best = 0;
  let bestCost = Number.POSITIVE_INFINITY;
  for (let bits = MIN_FFT_BITS; bits <= MAX_FFT_BITS; bits++) {
    const n = 2 ** bits;
    if (n <= 2 * (taps - 1)) continue;
    const cost = (n * bits) / (n - taps + 1);
    if (cost < bestCost) [best, bestCost] = [n, cost];
  }
  if (best === 0) throw new RangeError(`a filter of ${taps} taps is longer than the largest transform (2^${MAX_FFT_BITS})`);
  return best;
}

export class FftLowpass {
  readonly #fft: Fft;
  /** Half the (odd) filter length: the filter's delay, removed so the output lines up with the input. */
  readonly #half: number;
  /** New output samples per block: the transform size less the overlap. */
  readonly #hop: number;
  /** The filter's spectrum, scaled by 1/size for the unscaled inverse transform. */
  readonly #hRe: Float64Array;
  readonly #hIm: Float64Array;
  readonly #re: Float64Array;
  readonly #im: Float64Array;

  /** `taps`: odd length, symmetric about the middle one. */
  constructor(taps: Float64Array) {
    if (taps.length % 2 !== 1) throw new RangeError(`a zero-phase filter needs an odd number of taps, not ${taps.length}`);
    const size = bestSize(taps.length);
    this.#fft = new Fft(size);
    this.#half = (taps.length - 1) / 2;
    this.#hop = size - (taps.length - 1);
    this.#hRe = new Float64Array(size);
    this.#hIm = new Float64Array(size);
    for (let k = 0; k < taps.length; k++) this.#hRe[k] = taps[k]! / size;
    this.#fft.forward(this.#hRe, this.#hIm);
    this.#re = new Float64Array(size);
    this.#im = new Float64Array(size);
  }

  /**
   * out[n] = Σ_k taps[k]·input[n + half - k] for every n < out.length, the input taken as zero outside its
   * bounds. Two real blocks share one complex transform (one as the real part, one as the imaginary): the
   * filter is real, so their results come back apart in the real and imaginary parts.
   */
  apply(input: Float32Array | Float64Array, out: Float64Array): void {
    const fft = this.#fft;
    const size = fft.size;
    const half = this.#half;
    const hop = this.#hop;
    const re = this.#re;
    const im = this.#im;
    const hRe = this.#hRe;
    const hIm = this.#hIm;
    for (let start = 0; start < out.length; start += 2 * hop) {
      // Block outputs [start, start + hop) need inputs from start - half onwards: 2·half of them overlap.
      load(input, start - half, re);
      load(input, start + hop - half, im);
      fft.forward(re, im);
      for (let k = 0; k < size; k++) {
        const xr = re[k]!;
        const xi = im[k]!;
        re[k] = xr * hRe[k]! - xi * hIm[k]!;
        im[k] = xr * hIm[k]! + xi * hRe[k]!;
      }
      fft.inverse(re, im);
      const first = Math.min(hop, out.length - start);
      out.set(re.subarray(2 * half, 2 * half + first), start);
      const second = Math.min(hop, out.length - start - hop);
      if (second > 0) out.set(im.subarray(2 * half, 2 * half + second), start + hop);
    }
  }
}

/** block[i] = input[from + i], zero where that falls outside the input. */
function load(input: Float32Array | Float64Array, from: number, block: Float64Array): void {
  const lo = Math.max(0, -from);
  const hi = Math.max(lo, Math.min(block.length, input.length - from));
  block.fill(0, 0, lo);
  block.set(input.subarray(from + lo, from + hi), lo);
  block.fill(0, hi);
}
