/**
 * The 95% Wilson score interval of a success rate: k successes in n trials.
 * Chosen over the textbook "p ± 1.96·√(p(1-p)/n)" because that one collapses
 * to [0, 0] when nothing broke, which is exactly the case that must not read
 * as "safe": Wilson's upper bound at k = 0 is z²/(n + z²), 32% after 8 runs.
 * It stays inside [0, 1] and covers close to 95% even for small n.
 */

/** The two-sided 95% normal quantile (Φ⁻¹(0.975)), not rounded to 1.96. */
export const Z_95 = 1.959963984540054

export interface Interval {
  readonly low: number
  readonly high: number
}

/**
 * The Wilson score interval for `successes` of `trials` at the confidence of `z`
 * (95% by default). The edges are exact: k = 0 gives low = 0 and k = n gives
 * high = 1 (the formula's rounding would leave -1e-17 or 0.9999999999999999).
 * With no trial nothing is known: [0, 1]. Throws a RangeError on counts that
 * are not whole, negative, or more successes than trials.
 */
export function wilsonInterval(successes: number, trials: number, z = Z_95): Interval {
  if (!Number.isInteger(successes) || !Number.isInteger(trials) || successes < 0 || successes > trials) {
    throw new RangeError(`a success rate needs whole counts with 0 ≤ successes ≤ trials, not ${successes} of ${trials}`)
  }
  if (!(z > 0) || !Number.isFinite(z)) throw new RangeError(`the interval's z must be a positive number, not ${z}`)
  if (trials === 0) return { low: 0, high: 1 }
  const n = trials
  const p = successes / n
  const z2 = z * z
  const denom = 1 + z2 / n
  const centre = (p + z2 / (2 * n)) / denom
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom
  return {
    low: successes === 0 ? 0 : successes === n ? n / (n + z2) : Math.max(0, centre - half),
    high: successes === n ? 1 : successes === 0 ? z2 / (n + z2) : Math.min(1, centre + half),
  }
}
