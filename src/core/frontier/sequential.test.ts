/**
 * The sequential test's bound: a confidence sequence that holds at every look
 * at once. Checked by simulation on seeded streams: the running interval
 * misses the true rate in at most 1 - confidence of the sequences, where a
 * plain 95% Wilson interval looked at after every run misses it far more
 * often (the reason a bound for repeated looks is needed at all).
 */
import { seededRandom } from '../../testing/seededRandom'
import { wilson } from './observation'
import { decide, decisionOf, mixtureInterval, runsBeforeADecision, sequenceInterval, testProblem, type SequentialTest } from './sequential'

const draws = (p: number, n: number, seed: number) => {
  const next = seededRandom(seed)
  return Array.from({ length: n }, () => next() < p)
}

describe('the confidence sequence', () => {
  it('is [0, 1] before any run, holds the observed rate, and narrows as runs come in', () => {
    expect(mixtureInterval(0, 0, 0.05)).toEqual({ low: 0, high: 1 })
    let width = 1
    for (const n of [10, 40, 160, 640]) {
      const i = mixtureInterval(n / 2, n, 0.05)
      expect(i.low).toBeLessThan(0.5)
      expect(i.high).toBeGreaterThan(0.5)
      expect(i.high - i.low).toBeLessThan(width)
      width = i.high - i.low
    }
    expect(mixtureInterval(5, 5, 0.05).high).toBe(1)
    expect(mixtureInterval(0, 5, 0.05).low).toBe(0)
  })

  it('is wider than a one-look 95% Wilson interval at the same counts: the price of looking as often as one likes', () => {
    for (const [w, n] of [
      [3, 10],
      [30, 100],
      [70, 100],
    ]) {
      const cs = mixtureInterval(w, n, 0.05)
      const one = wilson({ wins: w, runs: n })
      expect(cs.low).toBeLessThan(one.low)
      expect(cs.high).toBeGreaterThan(one.high)
    }
  })

  it('decides an attacker that always wins above 0.5 after 8 runs at 95%, not before', () => {
    const t: SequentialTest = { confidence: 0.95, threshold: 0.5, maxRepeats: 100 }
    expect(decide(Array(7).fill(true), t)).toBe('undecided')
    expect(decide(Array(8).fill(true), t)).toBe('win')
    expect(decide(Array(8).fill(false), t)).toBe('loss')
    expect(runsBeforeADecision([], t, 100)).toBe(8)
    expect(runsBeforeADecision(Array(7).fill(true), t, 100)).toBe(1)
    // Never more than the limit, never less than one.
    expect(runsBeforeADecision([], t, 3)).toBe(3)
    expect(runsBeforeADecision([], t, 0)).toBe(1)
  })

  it('the batch it asks for is the fewest runs after which a decision is possible, whatever came before', () => {
    const t: SequentialTest = { confidence: 0.9, threshold: 0.3, maxRepeats: 500 }
    for (let seed = 1; seed <= 20; seed++) {
      const seen = draws(0.4, seed * 3, seed)
      const k = runsBeforeADecision(seen, t, 500)
      const canDecide = (m: number) =>
        decide([...seen, ...Array(m).fill(true)], t) === 'win' || decide([...seen, ...Array(m).fill(false)], t) === 'loss'
      if (decide(seen, t) !== 'undecided') continue
      expect(canDecide(k)).toBe(true)
      if (k > 1) expect(canDecide(k - 1)).toBe(false)
    }
  })

  it('running intersection: a decision, once reached, stays whatever runs follow', () => {
    const t: SequentialTest = { confidence: 0.95, threshold: 0.5, maxRepeats: 1000 }
    const early = Array(10).fill(true)
    expect(decide(early, t)).toBe('win')
    // 40 losses after it: the rate over 50 runs is 0.2, but the first 10 runs' interval already lay above 0.5.
    expect(decide([...early, ...Array(40).fill(false)], t)).toBe('win')
    expect(decisionOf({ low: 0.2, high: 0.6 }, 0.5)).toBe('undecided')
  })

  it('holds the true rate at every one of 300 looks in at least 95% of sequences; a Wilson interval looked at as often does not', () => {
    const looks = 300
    const sequences = 300
    for (const p of [0.1, 0.5, 0.85]) {
      let missed = 0
      let wilsonMissed = 0
      for (let s = 0; s < sequences; s++) {
        const runs = draws(p, looks, 1000 * p + s)
        // The running intersection excludes p exactly when some prefix's interval did.
        const i = sequenceInterval(runs, 0.95)
        if (i.low > p || i.high < p) missed++
        // ...which is when a test against p as its threshold decides either way.
        expect(decide(runs, { confidence: 0.95, threshold: p, maxRepeats: looks }) !== 'undecided').toBe(i.low > p || i.high < p)
        let wins = 0
        for (let n = 1; n <= looks; n++) {
          if (runs[n - 1]) wins++
          const w = wilson({ wins, runs: n })
          if (w.low > p || w.high < p) {
            wilsonMissed++
            break
          }
        }
      }
      expect(missed / sequences).toBeLessThanOrEqual(0.05)
      expect(wilsonMissed / sequences).toBeGreaterThan(0.15)
    }
  })

  it('names the number that is wrong', () => {
    expect(testProblem({ confidence: 0.95, threshold: 0.5, maxRepeats: 50 })).toBeNull()
    expect(testProblem({ confidence: 1, threshold: 0.5, maxRepeats: 50 })).toMatch(/^confidence 1: must be above 0 and below 1/)
    expect(testProblem({ confidence: 0.95, threshold: 0, maxRepeats: 50 })).toMatch(/^threshold 0:/)
    expect(testProblem({ confidence: 0.95, threshold: 0.5, maxRepeats: 0 })).toMatch(/^max repeats 0: must be an integer from 1 to 10,000/)
    expect(testProblem({ confidence: 0.95, threshold: 0.5, maxRepeats: 2.5 })).toMatch(/^max repeats 2.5/)
  })
})
