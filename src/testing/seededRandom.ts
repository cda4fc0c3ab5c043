/**
 * A small deterministic generator (mulberry32): the same values on every machine, so a property test or a bench
 * that draws from it names its seed and can be replayed.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** The generator with a picker beside it: `pick` draws one element of a list. */
export function seededDraws(seed: number): { next: () => number; pick: <T>(xs: readonly T[]) => T } {
  const next = seededRandom(seed)
  return { next, pick: (xs) => xs[Math.floor(next() * xs.length)] }
}
