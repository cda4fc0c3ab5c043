/**
 * What the frontier search needs of a lattice of threat models, so that one
 * search serves both spaces: the distinct scope-only threat models
 * (ThreatModelLattice, what the designer lists and `sweep --all` runs) and the
 * full space with read-only grants (GrantLattice). In both, an element is a
 * bitset closed downwards and the order is inclusion of bitsets, so Knowledge,
 * the frontiers and the contradictions compare covers the same way.
 */
import type { Forest } from '../tags'
import type { Cover } from './lattice'
import type { NamedModel } from './order'

/** What the pass asks of the search's knowledge: whether an element is decided by a win below or a loss above it, and the frontiers known. */
export interface Decider {
  aboveWin(c: Cover): boolean
  belowLoss(c: Cover): boolean
  /** The minimal wins known (evaluated), and the maximal losses. */
  wins(): readonly Cover[]
  losses(): readonly Cover[]
  /** Evaluated, its test ended undecided (a noisy target), and no verdict decides it: the pass must go past it. */
  undecided?(c: Cover): boolean
}

export interface SearchSpace {
  /** Bits per element, and the length of the longest chain from the bottom to the top. */
  readonly height: number
  /** Elements, the empty one excluded (superred's Controller refuses it). */
  readonly total: bigint
  /** True when elements may grant tags read only. */
  readonly readOnly: boolean
  empty(): Cover
  /** Bit b is in c and no bit above it is: dropping it is one step down. Bits are tried upper-first in ascending order. */
  isTop(c: Cover, b: number): boolean
  /** Bit b is not in c and every bit below it is: adding it is one step up. */
  canAdd(c: Cover, b: number): boolean
  toggled(c: Cover, b: number): Cover
  /**
   * One pass over the elements, skipping none that could be undecided: an
   * element it yields may be reused by the next step (copy it to keep it).
   * The decider is read lazily, so what is decided while the pass is
   * suspended is skipped later.
   */
  pass(decider: Decider): Generator<Cover, void, void>
  /** Every element, the empty one excluded, for counts and brute force (small spaces only). */
  elements(): Generator<Cover, void, void>
  /** The threat model an element is, names sorted as superred persists them. */
  modelOf(c: Cover): NamedModel
  /** The element a threat model is; a name not in the forest, or a read-only grant in a scope-only space, is a RangeError. */
  coverOfModel(m: NamedModel): Cover
  /** Its number: the designer's #N for a scope-only model, "S/R" (scope's and read_only's numbers) with read-only grants. */
  label(c: Cover): string
  /** The forest the space is built on. */
  forest(): Forest
}
