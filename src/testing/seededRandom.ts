import { seededStream } from '../reference-targets/stochastic/odds'

/**
 * A small deterministic generator (mulberry32, the stochastic reference target's own stream): the same values on
 * every machine, so a property test or a bench that draws from it names its seed and can be replayed.
 */
export const seededRandom: (seed: number) => () => number = seededStream

/** The generator with a picker beside it: `pick` draws one element of a list. */
export function seededDraws(seed: number): { next: () => number; pick: <T>(xs: readonly T[]) => T } {
  const next = seededRandom(seed)
  return { next, pick: (xs) => xs[Math.floor(next() * xs.length)] }
}
