/**
 * How sure a difference of two success rates is: Newcombe's hybrid score
 * interval (his method 10, 1998) for p₁ − p₂ of two independent samples,
 * built from the two Wilson intervals. The sweep painting calls a tag a
 * contributor only when this interval lies above zero, so the rule is made of
 * the very intervals it shows beside each tag ("with" and "without").
 */
import { wilsonInterval, Z_95, type Interval } from './wilson'

export interface Count {
  readonly successes: number
  readonly trials: number
}

/** The interval of rate(a) − rate(b); null when either sample is empty (no difference can be measured). */
export function differenceInterval(a: Count, b: Count, z = Z_95): Interval | null {
  if (a.trials === 0 || b.trials === 0) return null
  const p1 = a.successes / a.trials
  const p2 = b.successes / b.trials
  const w1 = wilsonInterval(a.successes, a.trials, z)
  const w2 = wilsonInterval(b.successes, b.trials, z)
  const d = p1 - p2
  return {
    low: Math.max(-1, d - Math.hypot(p1 - w1.low, w2.high - p2)),
    high: Math.min(1, d + Math.hypot(w1.high - p1, p2 - w2.low)),
  }
}
