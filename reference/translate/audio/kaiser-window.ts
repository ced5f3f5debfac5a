// Kaiser-windowed sinc low-pass filters: the design sox's resampler uses, with Kaiser's closed-form estimates
// (J. F. Kaiser, "Nonrecursive digital filter design using the I0-sinh window function", 1974) so that a
// filter is given by its rejection and transition width rather than by hand-picked lengths.

/** Window shape β for a stop-band rejection of `rejectionDb` (the estimate holds above 50 dB). */
export function kaiserBeta(rejectionDb: number): number {
  return 0.1102 * (rejectionDb - 8.7);
}

/**
 * Taps a Kaiser-windowed sinc needs for `rejectionDb` across a transition band `width` wide, in cycles per
 * sample (pass-band edge to stop-band edge).
 */
export function kaiserLength(rejectionDb: number, width: number): number {
  return Math.ceil((rejectionDb - 7.95) / (14.36 * width)) + 1;
}

/** The modified Bessel function of the first kind, order 0: its power series converges for every x the window asks. */
export function besselI0(x: number): number {
  const quarterSquare = (x * x) / 4;
  let term = 1;
  let sum = 1;
  for (let k = 1; term > sum * 1e-17; k++) {
    term *= quarterSquare / (k * k);
    sum += term;
  }
  return sum;
}

/** A Kaiser window of shape `beta` over [-1, 1], zero outside. */
export function kaiserWindow(beta: number): (x: number) => number {
  const scale = 1 / besselI0(beta);
  return (x) => (Math.abs(x) > 1 ? 0 : besselI0(beta * Math.sqrt(1 - x * x)) * scale);
}

/** sin(πx)/(πx), 1 at 0. */
export function sinc(x: number): number {
  if (x === 0) return 1;
  const px = Math.PI * x;
  return Math.sin(px) / px;
}

/**
 * The taps of a linear-phase low-pass: `2·halfLength + 1` of them, cut off at `cutoff` cycles per sample
 * (the -6 dB point, midway through the transition band), scaled so they sum to `gain`. Exact normalisation
 * keeps DC exact whatever the window leaves in the pass band.
 */
export function lowpassTaps(cutoff: number, halfLength: number, rejectionDb: number, gain = 1): Float64Array {
  const window = kaiserWindow(kaiserBeta(rejectionDb));
  const taps = new Float64Array(2 * halfLength + 1);
  let sum = 0;
  for (let k = -halfLength; k <= halfLength; k++) {
    const tap = 2 * cutoff * sinc(2 * cutoff * k) * window(k / halfLength);
    taps[k + halfLength] = tap;
    sum += tap;
  }
  for (let i = 0; i < taps.length; i++) taps[i] = (taps[i]! * gain) / sum;
  return taps;
}
