import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { differenceInterval, rateWords, wilsonInterval, Z_95 } from '.'

const Z2 = Z_95 * Z_95
/** k and n with 0 ≤ k ≤ n, n ≥ 1. */
const counts = fc.integer({ min: 1, max: 5_000 }).chain((n) => fc.tuple(fc.integer({ min: 0, max: n }), fc.constant(n)))

describe('the 95% Wilson interval', () => {
  it('matches published values (Newcombe 1998, Table I, the score method) to four places', () => {
    const cases: Array<[number, number, number, number]> = [
      [81, 263, 0.2553, 0.3662],
      [15, 148, 0.0624, 0.1605],
      [0, 20, 0, 0.1611],
      [1, 29, 0.0061, 0.1718],
    ]
    for (const [k, n, low, high] of cases) {
      const w = wilsonInterval(k, n)
      expect(w.low).toBeCloseTo(low, 4)
      expect(w.high).toBeCloseTo(high, 4)
    }
  })

  it('is exact at the edges: k = 0 starts at 0 and ends at z²/(n+z²), k = n ends at 1 and starts at n/(n+z²)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), (n) => {
        const none = wilsonInterval(0, n)
        const all = wilsonInterval(n, n)
        expect(none.low).toBe(0)
        expect(none.high).toBe(Z2 / (n + Z2))
        expect(all.high).toBe(1)
        expect(all.low).toBe(n / (n + Z2))
      }),
    )
    expect(wilsonInterval(0, 8).high).toBeCloseTo(0.3244, 4)
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1 })
  })

  it('holds the rate, stays in [0, 1], and its ends solve the score equation (p̂ − π)² = z²·π(1 − π)/n', () => {
    fc.assert(
      fc.property(counts, ([k, n]) => {
        const { low, high } = wilsonInterval(k, n)
        const p = k / n
        expect(0 <= low && low <= p && p <= high && high <= 1).toBe(true)
        for (const end of [low, high]) {
          if (end === 0 || end === 1) continue
          expect((p - end) ** 2).toBeCloseTo((Z2 * end * (1 - end)) / n, 9)
        }
      }),
    )
  })

  it('is symmetric (k of n mirrors n − k of n), grows with k, and narrows as n grows at the same rate', () => {
    fc.assert(
      fc.property(counts, ([k, n]) => {
        const a = wilsonInterval(k, n)
        const b = wilsonInterval(n - k, n)
        expect(a.low).toBeCloseTo(1 - b.high, 12)
        expect(a.high).toBeCloseTo(1 - b.low, 12)
        if (k < n) {
          const next = wilsonInterval(k + 1, n)
          expect(next.low).toBeGreaterThanOrEqual(a.low)
          expect(next.high).toBeGreaterThanOrEqual(a.high)
        }
        const doubled = wilsonInterval(2 * k, 2 * n)
        expect(doubled.high - doubled.low).toBeLessThan(a.high - a.low)
      }),
    )
  })

  it('refuses counts that are no counts, naming them', () => {
    expect(() => wilsonInterval(3, 2)).toThrow(/0 ≤ successes ≤ trials, not 3 of 2/)
    expect(() => wilsonInterval(-1, 2)).toThrow(RangeError)
    expect(() => wilsonInterval(0.5, 2)).toThrow(RangeError)
    expect(() => wilsonInterval(1, 2, 0)).toThrow(/z must be a positive number/)
  })
})

describe('the interval of a difference of two rates (Newcombe, method 10)', () => {
  it('matches published values (Newcombe 1998, Table II) to four places', () => {
    const cases: Array<[number, number, number, number, number, number]> = [
      [56, 70, 48, 80, 0.0524, 0.3339],
      [9, 10, 3, 10, 0.1705, 0.809],
      [5, 56, 0, 29, -0.0381, 0.1926],
      [0, 10, 0, 20, -0.1611, 0.2775],
      [0, 10, 0, 10, -0.2775, 0.2775],
      [10, 10, 0, 20, 0.6791, 1],
      [10, 10, 0, 10, 0.6075, 1],
    ]
    for (const [a, n, b, m, low, high] of cases) {
      const d = differenceInterval({ successes: a, trials: n }, { successes: b, trials: m })!
      expect(d.low).toBeCloseTo(low, 4)
      expect(d.high).toBeCloseTo(high, 4)
    }
  })

  it('holds the observed difference, is antisymmetric, and is unknown for an empty sample', () => {
    fc.assert(
      fc.property(counts, counts, ([a, n], [b, m]) => {
        const d = differenceInterval({ successes: a, trials: n }, { successes: b, trials: m })!
        const r = differenceInterval({ successes: b, trials: m }, { successes: a, trials: n })!
        expect(d.low).toBeLessThanOrEqual(a / n - b / m + 1e-12)
        expect(d.high).toBeGreaterThanOrEqual(a / n - b / m - 1e-12)
        expect(d.low).toBeCloseTo(-r.high, 12)
        expect(-1 <= d.low && d.high <= 1).toBe(true)
      }),
    )
    expect(differenceInterval({ successes: 0, trials: 0 }, { successes: 1, trials: 2 })).toBeNull()
  })
})

describe('the words of a rate', () => {
  it('say a held defence as what it is: how little was tried, by whom, and the upper bound', () => {
    expect(rateWords(0, 8, { unit: 'run', attacker: 'template' })).toMatchObject({
      held: true,
      headline: 'not broken',
      text: 'not broken in 8 runs by template (≤ 33% at 95%)',
      detail: 'in 8 runs by template, ≤ 33% at 95%',
      short: '0/8 (≤ 33%)',
    })
    expect(rateWords(0, 1, { unit: 'task' }).text).toBe('not broken in 1 task (≤ 80% at 95%)')
  })

  it('say a rate with its n and its interval, rounded outwards', () => {
    expect(rateWords(1, 3, { unit: 'task' })).toMatchObject({
      held: false,
      headline: '33%',
      text: '33% (1 of 3 tasks, 95% CI 6–80%)',
      short: '1/3 (6–80%)',
    })
    // The example of issue 31: 12 of 15 is 54.8–93.0%, 10 of 12 is 55.2–95.3%.
    expect(rateWords(12, 15, { unit: 'task' }).short).toBe('12/15 (54–93%)')
    expect(rateWords(10, 12, { unit: 'task' }).short).toBe('10/12 (55–96%)')
    expect(rateWords(3, 3, { unit: 'task' }).text).toBe('100% (3 of 3 tasks, 95% CI 43–100%)')
    expect(rateWords(1, 1000, { unit: 'task' }).headline).toBe('<1%')
    expect(rateWords(999, 1000, { unit: 'task' }).headline).toBe('>99%')
    expect(rateWords(0, 0, { unit: 'task' })).toMatchObject({ headline: '–', text: 'no completed task', interval: null, rate: null })
  })

  it('never claim more than was measured: no "safe", no bare 0%, and the printed interval holds the computed one', () => {
    fc.assert(
      fc.property(counts, fc.constantFrom('task', 'run') as fc.Arbitrary<'task' | 'run'>, ([k, n], unit) => {
        const w = rateWords(k, n, { unit, attacker: 'template' })
        expect(w.text).not.toMatch(/safe|secure/i)
        expect(w.held).toBe(k === 0)
        if (k === 0) expect(w.text).toMatch(/^not broken in [\d,]+ (task|run)s? by template \(≤ \d+% at 95%\)$/)
        else expect(w.headline).not.toBe('0%')
        if (k < n) expect(w.headline).not.toBe('100%')
        const iv = wilsonInterval(k, n)
        const printed = /\((?:≤ |(\d+)–)(\d+)%\)$/.exec(w.short)!
        expect(Number(printed[2]) / 100).toBeGreaterThanOrEqual(iv.high)
        if (k > 0) expect(Number(printed[1]) / 100).toBeLessThanOrEqual(iv.low)
      }),
    )
  })
})
