/**
 * The frontier search for one question, as a generator: it yields the next
 * threat model to evaluate, and the caller records the verdict in the
 * Knowledge before asking for the next. The same steps serve a synchronous
 * oracle (tests, benchmarks) and the real Controller (CLI, browser).
 *
 * One pass over the space (the scope-only lattice: a cursor in superred's
 * order; the read-only one: blocks split on bits, see GrantLattice.pass), so
 * nothing is materialised; an element already decided is skipped, and since
 * knowledge only grows, an element decided once stays decided: the pass is
 * the only scan, whatever the number of evaluations. On an undecided element
 * x the search seeds and walks:
 *  - seed 'low' (default): slide down from x through undecided threat models
 *    to one whose every lower neighbour is decided, and evaluate it. A win
 *    there is a minimal win at once; a loss walks up.
 *  - seed 'high': slide up to an undecided one whose every upper neighbour is
 *    decided. A loss there is a maximal loss at once; a win walks down.
 *  - walk down from a win: try dropping each tag once, in pre-order (a tag is
 *    droppable when it is a top of the cover); keep every drop that still
 *    wins. The end is a minimal win (monotonicity: whatever was refused stays
 *    refused below). Walk up from a loss: try granting each tag once, children
 *    before parents, keep every grant that still loses; the end is a maximal loss.
 * Each seed and walk ends on a frontier element not known before, and costs
 * at most height + 1 evaluations, hence the bound in docs/frontier.md:
 * evaluations ≤ (|minimal wins| + |maximal losses|) × (height + 1).
 */
import { isEmptyCover, type Cover, type SearchSpace } from '../lattice'
import type { Knowledge, Settled } from './knowledge'

export type Seed = 'low' | 'high'

/** The empty threat model is not a threat model superred runs: it loses by definition. */
function statusOf(know: Knowledge, c: Cover): Settled | null {
  return isEmptyCover(c) ? 'loss' : know.status(c)
}

function verdictAfterYield(know: Knowledge, c: Cover): Settled {
  const v = know.evaluated(c)
  if (v === undefined) throw new Error('the frontier search resumed without a verdict for the threat model it asked for')
  return v
}

function* walkDown(lattice: SearchSpace, know: Knowledge, start: Cover): Generator<Cover, Cover, void> {
  let y = start
  for (let v = 0; v < lattice.height; v++) {
    if (!lattice.isTop(y, v)) continue
    const c = lattice.toggled(y, v)
    let verdict = statusOf(know, c)
    if (verdict === null) {
      yield c
      verdict = verdictAfterYield(know, c)
    }
    if (verdict === 'win') y = c
  }
  return y
}

function* walkUp(lattice: SearchSpace, know: Knowledge, start: Cover): Generator<Cover, Cover, void> {
  let y = start
  // Descending pre-order visits every child before its parent.
  for (let v = lattice.height - 1; v >= 0; v--) {
    if (!lattice.canAdd(y, v)) continue
    const c = lattice.toggled(y, v)
    let verdict = statusOf(know, c)
    if (verdict === null) {
      yield c
      verdict = verdictAfterYield(know, c)
    }
    if (verdict === 'loss') y = c
  }
  return y
}

/** Slides from an undecided x to an undecided neighbour while there is one: no evaluation, inference only. */
function slide(lattice: SearchSpace, know: Knowledge, x: Cover, seed: Seed): Cover {
  let y = x
  for (let moved = true; moved;) {
    moved = false
    for (let v = 0; v < lattice.height && !moved; v++) {
      const step = seed === 'low' ? lattice.isTop(y, v) : lattice.canAdd(y, v)
      if (!step) continue
      const c = lattice.toggled(y, v)
      if (statusOf(know, c) === null) {
        y = c
        moved = true
      }
    }
  }
  return y
}

/**
 * Settles one undecided threat model: a seed, then a walk to a new frontier element. On a noisy target a
 * seed whose test ends undecided starts no walk, and a walk does not step onto an undecided neighbour: it
 * then ends on a minimal decided win (or maximal decided loss), with the undecided reported beside it.
 */
function* settle(lattice: SearchSpace, know: Knowledge, x: Cover, seed: Seed): Generator<Cover, void, void> {
  const z = slide(lattice, know, x, seed)
  yield z
  const v = verdictAfterYield(know, z)
  if (v === 'win') yield* walkDown(lattice, know, z)
  else if (v === 'loss') yield* walkUp(lattice, know, z)
}

/** Every evaluation the search wants, until every threat model is decided. */
export function* frontierSteps(lattice: SearchSpace, know: Knowledge, seed: Seed = 'low'): Generator<Cover, void, void> {
  for (const x of lattice.pass(know)) {
    while (statusOf(know, x) === null) yield* settle(lattice, know, x.slice(), seed)
  }
}

/**
 * How the lattice stands for one question: decided by its own evaluation, decided by inference, undecided (an
 * evaluation whose test ended undecided counts as undecided, or as inferred once another verdict decides it). A full scan: for reports, not per step on huge forests.
 */
export function tally(lattice: SearchSpace, know: Knowledge): { evaluated: number; inferred: number; undecided: number } {
  let evaluated = 0
  let inferred = 0
  let undecided = 0
  for (const scratch of lattice.elements()) {
    const s = know.status(scratch)
    if (s === null || s === 'undecided') undecided++
    else if (know.evaluated(scratch) === s) evaluated++
    else inferred++ // an evaluation that ended undecided and was then decided by another's verdict counts here
  }
  return { evaluated, inferred, undecided }
}
