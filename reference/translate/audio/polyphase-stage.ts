// The resampler's second stage: band-limited interpolation of an already low-passed signal at the output
// instants. The signal holds nothing in the band where this filter rolls off, so a short kernel (a few
// dozen taps) suffices, and its coefficients for each output phase come from a table built once.
import { kaiserBeta, kaiserWindow, sinc } from './kaiser-window.ts';

/**
 * Phases tabulated. When the ratio has at most this many distinct phases (all the common rates do), each gets
 * its own exact row; beyond, the coefficients are interpolated linearly between rows this close together,
 * which errs by under 1e-7 per tap, below the filter's own rejection.
 */
const MAX_PHASES = 8192;

export interface PolyphaseOptions {
  /** Output instant j falls at input position j·down/up: the reduced ratio of the two rates. */
  up: number;
  down: number;
  /** Taps on each side of the output instant. */
  halfTaps: number;
  rejectionDb: number;
}

export class PolyphaseStage {
  readonly #up: number;
  readonly #down: number;
  readonly #halfTaps: number;
  /** One row of 2·halfTaps coefficients per phase (plus a closing row when interpolated). */
  readonly #rows: Float64Array;
  /** Rows per unit of input position: `up` when exact, MAX_PHASES when interpolated. */
  readonly #phases: number;

  constructor({ up, down, halfTaps, rejectionDb }: PolyphaseOptions) {
    this.#up = up;
    this.#down = down;
    this.#halfTaps = halfTaps;
    this.#phases = up <= MAX_PHASES ? up : MAX_PHASES;
    const exact = this.#phases === up;
    const width = 2 * halfTaps;
    const rowCount = exact ? up : MAX_PHASES + 1;
    this.#rows = new Float64Array(rowCount * width);
    // The kernel is a sinc at the input's Nyquist frequency: the pass band (what the first stage kept) and
    // the stop band (that band's first image) lie symmetrically about it.
    const window = kaiserWindow(kaiserBeta(rejectionDb));
    for (let p = 0; p < rowCount; p++) {
      const phase = p / this.#phases;
      let sum = 0;
      for (let k = 0; k < width; k++) {
        const distance = phase - (k - halfTaps + 1);
        const c = sinc(distance) * window(distance / halfTaps);
        this.#rows[p * width + k] = c;
        sum += c;
      }
      // Each phase passes DC exactly, so no phase-dependent gain modulates the output.
      for (let k = 0; k < width; k++) this.#rows[p * width + k]! /= sum;
    }
  }

  /**
   * out[j] = Σ_k input[offset + i - halfTaps + 1 + k]·row(φ)[k] for j·down/up = i + φ: `offset` is where
   * input position 0 sits in `input`, which must hold halfTaps positions beyond either end of the output's span.
   */
  run(input: Float64Array, offset: number, out: Float32Array): void {
    if (this.#phases === this.#up) this.#runExact(input, offset, out);
    else this.#runInterpolated(input, offset, out);
  }

  #runExact(input: Float64Array, offset: number, out: Float32Array): void {
    const up = this.#up;
    const rows = this.#rows;
    const width = 2 * this.#halfTaps;
    const whole = Math.floor(this.#down / up);
    const rest = this.#down % up;
    let base = offset - this.#halfTaps + 1;
    let phase = 0;
    for (let j = 0; j < out.length; j++) {
      const row = phase * width;
      // Four running sums: one would chain every addition to the one before.
      let a0 = 0;
      let a1 = 0;
      let a2 = 0;
      let a3 = 0;
      for (let k = 0; k < width; k += 4) {
        a0 += input[base + k]! * rows[row + k]!;
        a1 += input[base + k + 1]! * rows[row + k + 1]!;
        a2 += input[base + k + 2]! * rows[row + k + 2]!;
        a3 += input[base + k + 3]! * rows[row + k + 3]!;
      }
      out[j] = a0 + a1 + (a2 + a3);
      base += whole;
      phase += rest;
      if (phase >= up) {
        phase -= up;
        base++;
      }
    }
  }

  #runInterpolated(input: Float64Array, offset: number, out: Float32Array): void {
    const up = this.#up;
    const rows = this.#rows;
    const width = 2 * this.#halfTaps;
    const phases = this.#phases;
    const whole = Math.floor(this.#down / up);
    const rest = this.#down % up;
    let base = offset - this.#halfTaps + 1;
    let phase = 0;
    for (let j = 0; j < out.length; j++) {
      const position = (phase * phases) / up;
      const p = Math.floor(position);
      const a = position - p;
      const row = p * width;
      let near = 0;
      let far = 0;
      for (let k = 0; k < width; k++) {
        const x = input[base + k]!;
        near += x * rows[row + k]!;
        far += x * rows[row + width + k]!;
      }
      out[j] = near + a * (far - near);
      base += whole;
      phase += rest;
      if (phase >= up) {
        phase -= up;
        base++;
      }
    }
  }
}
