// Resampling by rational ratio L/M in the frequency domain: each block of M·q input samples is transformed,
// multiplied by the anti-alias filter's spectrum, cut (or zero-padded) to L·q bins and transformed back,
// which yields the filtered signal directly at the output instants. Overlap-save keeps only the outputs the
// circular convolution leaves intact. No interpolation kernel runs per output sample, which makes this the
// fast path; it needs L and M to have no prime factor above 7, as every common audio rate gives.
import { Fft, fftRadices } from './fft.ts';

/** Largest transform tried: beyond, blocks outgrow the caches for no gain in overlap. */
const MAX_FFT_SIZE = 1 << 16;

export interface DftPlanInput {
  /** The reduced ratio: `up` outputs for every `down` inputs. */
  up: number;
  down: number;
  /** The anti-alias filter at the input rate: odd length, symmetric. */
  taps: Float64Array;
}

interface Blocking {
  up: number;
  down: number;
  /** Transform sizes: down·q at the input, up·q at the output. */
  inSize: number;
  outSize: number;
  /** Inputs and outputs advanced per block. */
  inHop: number;
  outHop: number;
  /** First block output kept: earlier ones lie where the circular convolution wrapped around. */
  firstKept: number;
}

/** The q whose pair of transforms costs least per input sample, or undefined when no size fits. */
function chooseBlocking(up: number, down: number, taps: number): Blocking | undefined {
  if (!fftRadices(up) || !fftRadices(down)) return undefined;
  let best: Blocking | undefined;
  let bestCost = Number.POSITIVE_INFINITY;
  for (let q = 2; Math.max(up, down) * q <= MAX_FFT_SIZE; q++) {
    const [inSize, outSize] = [down * q, up * q];
    if (!fftRadices(q)) continue;
    // Output i of a block falls at input position i·down/up; it is intact from taps - 1 to inSize - 1.
    const firstKept = up * Math.ceil(Math.ceil(((taps - 1) * up) / down) / up);
    const lastKept = Math.floor(((inSize - 1) * up) / down);
    const outHop = up * Math.floor((lastKept - firstKept + 1) / up);
    if (outHop <= 0) continue;
    const inHop = (outHop / up) * down;
    const cost = (inSize * Math.log2(inSize) + outSize * Math.log2(outSize)) / inHop;
    if (cost < bestCost) [best, bestCost] = [{ up, down, inSize, outSize, inHop, outHop, firstKept }, cost];
  }
  return best;
}

export class DftResampler {
  readonly #blocking: Blocking;
  readonly #half: number;
  readonly #inFft: Fft;
  readonly #outFft: Fft;
  /** The filter's spectrum at the input size, scaled by 1/inSize for the unscaled inverse transform. */
  readonly #hRe: Float64Array;
  readonly #hIm: Float64Array;
  readonly #re: Float64Array;
  readonly #im: Float64Array;
  readonly #outRe: Float64Array;
  readonly #outIm: Float64Array;

  /** Undefined when the ratio has a prime factor above 7 or needs larger transforms than this path takes. */
  static create(input: DftPlanInput): DftResampler | undefined {
    const blocking = chooseBlocking(input.up, input.down, input.taps.length);
    return blocking && new DftResampler(input.taps, blocking);
  }

  private constructor(taps: Float64Array, blocking: Blocking) {
    this.#blocking = blocking;
    this.#half = (taps.length - 1) / 2;
    this.#inFft = new Fft(blocking.inSize);
    this.#outFft = new Fft(blocking.outSize);
    this.#hRe = new Float64Array(blocking.inSize);
    this.#hIm = new Float64Array(blocking.inSize);
    for (let k = 0; k < taps.length; k++) this.#hRe[k] = taps[k]! / blocking.inSize;
    this.#inFft.forward(this.#hRe, this.#hIm);
    this.#re = new Float64Array(blocking.inSize);
    this.#im = new Float64Array(blocking.inSize);
    this.#outRe = new Float64Array(blocking.outSize);
    this.#outIm = new Float64Array(blocking.outSize);
  }

  /**
   * out[j] = the filtered input at position j·down/up, the input taken as zero outside its bounds. Two real
   * blocks share each complex transform (one as the real part, one as the imaginary): the filter is real and
   * the bins kept are symmetric, so their results come back apart in the real and imaginary parts.
   */
  run(input: Float32Array, out: Float32Array): void {
    const { up, down, inSize, outSize, inHop, outHop, firstKept } = this.#blocking;
    const re = this.#re;
    const im = this.#im;
    const hRe = this.#hRe;
    const hIm = this.#hIm;
    const outRe = this.#outRe;
    const outIm = this.#outIm;
    // Bins below both Nyquist frequencies; the filter has rejected everything from the lower one up.
    const kept = Math.min(inSize, outSize) / 2;
    // Block output i sits at input position start - half + i·down/up; output 0 of the whole comes from i = firstKept.
    let start = this.#half - (firstKept / up) * down;
    for (let j = 0; j < out.length; j += 2 * outHop) {
      load(input, start, re);
      load(input, start + inHop, im);
      this.#inFft.forward(re, im);
      outRe.fill(0);
      outIm.fill(0);
      for (let k = 0; k < kept; k++) {
        outRe[k] = re[k]! * hRe[k]! - im[k]! * hIm[k]!;
        outIm[k] = re[k]! * hIm[k]! + im[k]! * hRe[k]!;
      }
      // Negative frequencies sit at the top of each transform.
      for (let k = 1; k < kept; k++) {
        const src = inSize - k;
        const dst = outSize - k;
        outRe[dst] = re[src]! * hRe[src]! - im[src]! * hIm[src]!;
        outIm[dst] = re[src]! * hIm[src]! + im[src]! * hRe[src]!;
      }
      this.#outFft.inverse(outRe, outIm);
      copy(outRe, firstKept, out, j, outHop);
      copy(outIm, firstKept, out, j + outHop, outHop);
      start += 2 * inHop;
    }
  }
}

/** block[i] = input[from + i], zero where that falls outside the input. */
function load(input: Float32Array, from: number, block: Float64Array): void {
  const lo = Math.min(block.length, Math.max(0, -from));
  const hi = Math.max(lo, Math.min(block.length, input.length - from));
  block.fill(0, 0, lo);
  block.set(input.subarray(from + lo, from + hi), lo);
  block.fill(0, hi);
}

/** out[at + i] = block[first + i] for i < count, as far as `out` reaches. */
function copy(block: Float64Array, first: number, out: Float32Array, at: number, count: number): void {
  const n = Math.min(count, out.length - at);
  if (n > 0) out.set(block.subarray(first, first + n), at);
}
