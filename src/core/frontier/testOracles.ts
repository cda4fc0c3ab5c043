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

/** A monotone success rate: each generator below the threat model pulls with its chance, independently (1 - Π (1 - pull)). */
export const monotoneRate = (generators: ReadonlyArray<{ cover: Cover; pull: number }>) => (c: Cover) => {
  let stays = 1
  for (const g of generators) if (coverLeq(g.cover, c)) stays *= 1 - g.pull
  return 1 - stays
}

/** An oracle that runs the claim `runs` times at once, each task winning with its rate, drawn from `next`. */
export const bernoulli = (rates: ReadonlyArray<(c: Cover) => number>, next: () => number) => (c: Cover, runs: number) => ({
  runs: Array.from({ length: runs }, () => rates.map((rate) => next() < rate(c))),
})
