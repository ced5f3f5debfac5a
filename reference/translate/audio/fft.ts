// An in-place complex FFT for sizes whose prime factors are 2, 3, 5 and 7 (Stockham's self-sorting form: no
// bit-reversal pass). The resampler needs such sizes: its input and output blocks stand in the ratio of the
// two rates, 441:320 for 22050 -> 16000 Hz, so no power of two fits both.

/** Radices in the order their passes run: 4 first, as it needs no multiplications inside the butterfly. */
const RADICES = [4, 2, 3, 5, 7] as const;

/** cos and sin of 2πk/5 and 2πk/7, for the radix-5 and radix-7 butterflies. */
const C5_1 = Math.cos((2 * Math.PI) / 5);
const C5_2 = Math.cos((4 * Math.PI) / 5);
const S5_1 = Math.sin((2 * Math.PI) / 5);
const S5_2 = Math.sin((4 * Math.PI) / 5);
const C7_1 = Math.cos((2 * Math.PI) / 7);
const C7_2 = Math.cos((4 * Math.PI) / 7);
const C7_3 = Math.cos((6 * Math.PI) / 7);
const S7_1 = Math.sin((2 * Math.PI) / 7);
const S7_2 = Math.sin((4 * Math.PI) / 7);
const S7_3 = Math.sin((6 * Math.PI) / 7);

/** The radices of `n`, or undefined when it has a prime factor above 7. */
export function fftRadices(n: number): number[] | undefined {
  if (!(Number.isSafeInteger(n) && n >= 1)) return undefined;
  const radices: number[] = [];
  let rest = n;
  for (const r of RADICES) {
    while (rest % r === 0) {
      radices.push(r);
      rest /= r;
    }
  }
  return rest === 1 ? radices : undefined;
}

export class Fft {
  readonly size: number;
  readonly #radices: number[];
  /** cos(2πt/n) and -sin(2πt/n) for every t < n: the forward twiddles, computed once per size. */
  readonly #cos: Float64Array;
  readonly #sin: Float64Array;
  /** The passes alternate between the caller's arrays and these. */
  readonly #re: Float64Array;
  readonly #im: Float64Array;

  constructor(size: number) {
    const radices = fftRadices(size);
    if (!radices || size < 2) throw new RangeError(`FFT size ${size} is not a product of 2, 3, 5 and 7`);
    this.size = size;
    this.#radices = radices;
    this.#cos = new Float64Array(size);
    this.#sin = new Float64Array(size);
    for (let t = 0; t < size; t++) {
      this.#cos[t] = Math.cos((2 * Math.PI * t) / size);
      this.#sin[t] = -Math.sin((2 * Math.PI * t) / size);
    }
    this.#re = new Float64Array(size);
    this.#im = new Float64Array(size);
  }

  /** X[k] = Σ x[j]·e^(-2πikj/size), in place. */
  forward(re: Float64Array, im: Float64Array): void {
    // Plain swaps below, not array destructuring: the optimiser handles those poorly in hot code.
    let xr = re;
    let xi = im;
    let yr = this.#re;
    let yi = this.#im;
    // Pass with sub-transform length n and stride s: from x[q + s(p + k·n/r)] to y[q + s(r·p + j)].
    let n = this.size;
    let s = 1;
    for (const r of this.#radices) {
      const m = n / r;
      const step = this.size / n;
      if (r === 4) this.#pass4(xr, xi, yr, yi, m, s, step);
      else if (r === 2) this.#pass2(xr, xi, yr, yi, m, s, step);
      else if (r === 3) this.#pass3(xr, xi, yr, yi, m, s, step);
      else if (r === 5) this.#pass5(xr, xi, yr, yi, m, s, step);
      else this.#pass7(xr, xi, yr, yi, m, s, step);
      const tr = xr;
      const ti = xi;
      xr = yr;
      xi = yi;
      yr = tr;
      yi = ti;
      n = m;
      s *= r;
    }
    if (xr !== re) {
      re.set(xr);
      im.set(xi);
    }
  }

  /** x[j] = Σ X[k]·e^(2πikj/size), unscaled: the forward transform of the swapped parts is the swapped inverse. */
  inverse(re: Float64Array, im: Float64Array): void {
    this.forward(im, re);
  }

  #pass2(xr: Float64Array, xi: Float64Array, yr: Float64Array, yi: Float64Array, m: number, s: number, step: number): void {
    const cos = this.#cos;
    const sin = this.#sin;
    for (let p = 0; p < m; p++) {
      const w1r = cos[p * step]!;
      const w1i = sin[p * step]!;
      for (let q = 0; q < s; q++) {
        const a = q + s * p;
        const b = a + s * m;
        const ar = xr[a]!;
        const ai = xi[a]!;
        const br = xr[b]!;
        const bi = xi[b]!;
        const out = q + 2 * s * p;
        yr[out] = ar + br;
        yi[out] = ai + bi;
        const dr = ar - br;
        const di = ai - bi;
        yr[out + s] = dr * w1r - di * w1i;
        yi[out + s] = dr * w1i + di * w1r;
      }
    }
  }

  #pass3(xr: Float64Array, xi: Float64Array, yr: Float64Array, yi: Float64Array, m: number, s: number, step: number): void {
    const cos = this.#cos;
    const sin = this.#sin;
    const h = Math.sqrt(3) / 2;
    for (let p = 0; p < m; p++) {
      const w1r = cos[p * step]!;
      const w1i = sin[p * step]!;
      const w2r = cos[2 * p * step]!;
      const w2i = sin[2 * p * step]!;
      for (let q = 0; q < s; q++) {
        const i0 = q + s * p;
        const i1 = i0 + s * m;
        const i2 = i1 + s * m;
        const sr = xr[i1]! + xr[i2]!;
        const si = xi[i1]! + xi[i2]!;
        // -i·(√3/2)(a1 - a2)
        const dr = h * (xi[i1]! - xi[i2]!);
        const di = -h * (xr[i1]! - xr[i2]!);
        const tr = xr[i0]! - sr / 2;
        const ti = xi[i0]! - si / 2;
        const out = q + 3 * s * p;
        yr[out] = xr[i0]! + sr;
        yi[out] = xi[i0]! + si;
        const b1r = tr + dr;
        const b1i = ti + di;
        const b2r = tr - dr;
        const b2i = ti - di;
        yr[out + s] = b1r * w1r - b1i * w1i;
        yi[out + s] = b1r * w1i + b1i * w1r;
        yr[out + 2 * s] = b2r * w2r - b2i * w2i;
        yi[out + 2 * s] = b2r * w2i + b2i * w2r;
      }
    }
  }

  #pass4(xr: Float64Array, xi: Float64Array, yr: Float64Array, yi: Float64Array, m: number, s: number, step: number): void {
    const cos = this.#cos;
    const sin = this.#sin;
    for (let p = 0; p < m; p++) {
      const w1r = cos[p * step]!;
      const w1i = sin[p * step]!;
      const w2r = cos[2 * p * step]!;
      const w2i = sin[2 * p * step]!;
      const w3r = cos[3 * p * step]!;
      const w3i = sin[3 * p * step]!;
      for (let q = 0; q < s; q++) {
        const i0 = q + s * p;
        const i1 = i0 + s * m;
        const i2 = i1 + s * m;
        const i3 = i2 + s * m;
        const s02r = xr[i0]! + xr[i2]!;
        const s02i = xi[i0]! + xi[i2]!;
        const d02r = xr[i0]! - xr[i2]!;
        const d02i = xi[i0]! - xi[i2]!;
        const s13r = xr[i1]! + xr[i3]!;
        const s13i = xi[i1]! + xi[i3]!;
        // -i·(a1 - a3)
        const d13r = xi[i1]! - xi[i3]!;
        const d13i = xr[i3]! - xr[i1]!;
        const out = q + 4 * s * p;
        yr[out] = s02r + s13r;
        yi[out] = s02i + s13i;
        const b1r = d02r + d13r;
        const b1i = d02i + d13i;
        const b2r = s02r - s13r;
        const b2i = s02i - s13i;
        const b3r = d02r - d13r;
        const b3i = d02i - d13i;
        yr[out + s] = b1r * w1r - b1i * w1i;
        yi[out + s] = b1r * w1i + b1i * w1r;
        yr[out + 2 * s] = b2r * w2r - b2i * w2i;
        yi[out + 2 * s] = b2r * w2i + b2i * w2r;
        yr[out + 3 * s] = b3r * w3r - b3i * w3i;
        yi[out + 3 * s] = b3r * w3i + b3i * w3r;
      }
    }
  }

  /**
   * Radix 5: inputs k and 5 - k are combined first (sums against cosines, differences against sines), which
   * halves the multiplications of a plain 5-point DFT.
   */
  #pass5(xr: Float64Array, xi: Float64Array, yr: Float64Array, yi: Float64Array, m: number, s: number, step: number): void {
    const cos = this.#cos;
    const sin = this.#sin;
    const c1 = C5_1;
    const c2 = C5_2;
    const s1 = S5_1;
    const s2 = S5_2;
    for (let p = 0; p < m; p++) {
      const t = p * step;
      for (let q = 0; q < s; q++) {
        const i0 = q + s * p;
        const i1 = i0 + s * m;
        const i2 = i1 + s * m;
        const i3 = i2 + s * m;
        const i4 = i3 + s * m;
        const a0r = xr[i0]!;
        const a0i = xi[i0]!;
        const s1r = xr[i1]! + xr[i4]!;
        const s1i = xi[i1]! + xi[i4]!;
        const d1r = xr[i1]! - xr[i4]!;
        const d1i = xi[i1]! - xi[i4]!;
        const s2r = xr[i2]! + xr[i3]!;
        const s2i = xi[i2]! + xi[i3]!;
        const d2r = xr[i2]! - xr[i3]!;
        const d2i = xi[i2]! - xi[i3]!;
        const out = q + 5 * s * p;
        yr[out] = a0r + s1r + s2r;
        yi[out] = a0i + s1i + s2i;
        const c1r = a0r + c1 * s1r + c2 * s2r;
        const c1i = a0i + c1 * s1i + c2 * s2i;
        const n1r = s1 * d1r + s2 * d2r;
        const n1i = s1 * d1i + s2 * d2i;
        const c2r = a0r + c2 * s1r + c1 * s2r;
        const c2i = a0i + c2 * s1i + c1 * s2i;
        const n2r = s2 * d1r - s1 * d2r;
        const n2i = s2 * d1i - s1 * d2i;
        // b_j = c_j - i·n_j and b_(5-j) = c_j + i·n_j, then each times its twiddle.
        twiddle(yr, yi, out + s, c1r + n1i, c1i - n1r, cos, sin, t);
        twiddle(yr, yi, out + 2 * s, c2r + n2i, c2i - n2r, cos, sin, 2 * t);
        twiddle(yr, yi, out + 3 * s, c2r - n2i, c2i + n2r, cos, sin, 3 * t);
        twiddle(yr, yi, out + 4 * s, c1r - n1i, c1i + n1r, cos, sin, 4 * t);
      }
    }
  }

  /** Radix 7, combined as radix 5 is. */
  #pass7(xr: Float64Array, xi: Float64Array, yr: Float64Array, yi: Float64Array, m: number, s: number, step: number): void {
    const cos = this.#cos;
    const sin = this.#sin;
    const c1 = C7_1;
    const c2 = C7_2;
    const c3 = C7_3;
    const s1 = S7_1;
    const s2 = S7_2;
    const s3 = S7_3;
    for (let p = 0; p < m; p++) {
      const t = p * step;
      for (let q = 0; q < s; q++) {
        const i0 = q + s * p;
        const i1 = i0 + s * m;
        const i2 = i1 + s * m;
        const i3 = i2 + s * m;
        const i4 = i3 + s * m;
        const i5 = i4 + s * m;
        const i6 = i5 + s * m;
        const a0r = xr[i0]!;
        const a0i = xi[i0]!;
        const s1r = xr[i1]! + xr[i6]!;
        const s1i = xi[i1]! + xi[i6]!;
        const d1r = xr[i1]! - xr[i6]!;
        const d1i = xi[i1]! - xi[i6]!;
        const s2r = xr[i2]! + xr[i5]!;
        const s2i = xi[i2]! + xi[i5]!;
        const d2r = xr[i2]! - xr[i5]!;
        const d2i = xi[i2]! - xi[i5]!;
        const s3r = xr[i3]! + xr[i4]!;
        const s3i = xi[i3]! + xi[i4]!;
        const d3r = xr[i3]! - xr[i4]!;
        const d3i = xi[i3]! - xi[i4]!;
        const out = q + 7 * s * p;
        yr[out] = a0r + s1r + s2r + s3r;
        yi[out] = a0i + s1i + s2i + s3i;
        // Output j takes cos/sin(2π·jk/7): for j = 2 and 3 the products jk wrap past 7 and some sines change sign.
        const c1r = a0r + c1 * s1r + c2 * s2r + c3 * s3r;
        const c1i = a0i + c1 * s1i + c2 * s2i + c3 * s3i;
        const n1r = s1 * d1r + s2 * d2r + s3 * d3r;
        const n1i = s1 * d1i + s2 * d2i + s3 * d3i;
        const c2r = a0r + c2 * s1r + c3 * s2r + c1 * s3r;
        const c2i = a0i + c2 * s1i + c3 * s2i + c1 * s3i;
        const n2r = s2 * d1r - s3 * d2r - s1 * d3r;
        const n2i = s2 * d1i - s3 * d2i - s1 * d3i;
        const c3r = a0r + c3 * s1r + c1 * s2r + c2 * s3r;
        const c3i = a0i + c3 * s1i + c1 * s2i + c2 * s3i;
        const n3r = s3 * d1r - s1 * d2r + s2 * d3r;
        const n3i = s3 * d1i - s1 * d2i + s2 * d3i;
        twiddle(yr, yi, out + s, c1r + n1i, c1i - n1r, cos, sin, t);
        twiddle(yr, yi, out + 2 * s, c2r + n2i, c2i - n2r, cos, sin, 2 * t);
        twiddle(yr, yi, out + 3 * s, c3r + n3i, c3i - n3r, cos, sin, 3 * t);
        twiddle(yr, yi, out + 4 * s, c3r - n3i, c3i + n3r, cos, sin, 4 * t);
        twiddle(yr, yi, out + 5 * s, c2r - n2i, c2i + n2r, cos, sin, 5 * t);
        twiddle(yr, yi, out + 6 * s, c1r - n1i, c1i + n1r, cos, sin, 6 * t);
      }
    }
  }
}

/** y[at] = (br + i·bi)·(cos[t] + i·sin[t]). */
function twiddle(yr: Float64Array, yi: Float64Array, at: number, br: number, bi: number, cos: Float64Array, sin: Float64Array, t: number): void {
  const wr = cos[t]!;
  const wi = sin[t]!;
  yr[at] = br * wr - bi * wi;
  yi[at] = br * wi + bi * wr;
}
