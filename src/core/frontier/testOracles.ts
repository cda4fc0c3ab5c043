/** What the frontier's tests check a search against: brute force over every threat model, and monotone oracles. */
import { coverKey, coverLeq, type Cover } from '../lattice'

export const keys = (xs: readonly Cover[]) => xs.map(coverKey).sort()

/** The brute-force frontier of a predicate: every threat model evaluated. */
export function bruteForce(covers: readonly Cover[], wins: (c: Cover) => boolean) {
  const w = covers.filter(wins)
  const l = covers.filter((c) => !wins(c))
  return {
    minimalWins: keys(w.filter((a) => !w.some((b) => b !== a && coverLeq(b, a)))),
    maximalLosses: keys(l.filter((a) => !l.some((b) => b !== a && coverLeq(a, b)))),
  }
}

/** A monotone oracle: wins iff the threat model covers one of the generators' covers. */
export const monotone = (generators: readonly Cover[]) => (c: Cover) => generators.some((g) => coverLeq(g, c))
