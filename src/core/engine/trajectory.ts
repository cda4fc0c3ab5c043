/**
 * One run's record (superred `Trajectory`): the target's emits and the
 * controllable events with their responses, in emit order. A filtered view
 * (what the optimizer sees) is filled at emit time: while every item is
 * visible it shares the trajectory's list, and it gets its own copy at the
 * first item it may not see, before that item is added (one list per run in
 * the common case, as thousands of runs are kept).
 */
import { scopeIncludes, type Scope, type SecurityDomainTag } from '../tags'
import { EngineRuntimeError } from './errors'
import { domainOf, type ReadableTrajectory, type TrajectoryItem } from './events'
import { EngineValueError } from './types'

/**
 * The optimizer's filter: an item reaches its view iff the task's visibility (scope ∪ read_only) covers the item's
 * domain (a response's is its event's). One function, so that what the recorder sends and what results derive on
 * read (src/core/results/attackerView.ts) cannot drift apart.
 */
export function attackerSees(visibility: Scope, domain: SecurityDomainTag): boolean {
  return scopeIncludes(visibility, domain)
}

/** Moves a log onto a copy of its list and returns it (set by ItemLog: its private list, reachable from this module only). */
let detachLog: (log: ItemLog) => TrajectoryItem[]

/**
 * Items in emit order, read whole (`snapshot`) or since the last read
 * (`drain`): what a trajectory and its filtered view have in common.
 */
class ItemLog implements ReadableTrajectory {
  #entries: TrajectoryItem[]
  #cursor = 0

  static {
    detachLog = (log) => (log.#entries = log.#entries.slice())
  }

  constructor(entries: TrajectoryItem[]) {
    this.#entries = entries
  }

  snapshot(): readonly TrajectoryItem[] {
    return this.#entries.slice()
  }

  drain(): readonly TrajectoryItem[] {
    const fresh = this.#entries.slice(this.#cursor)
    this.#cursor = this.#entries.length
    return fresh
  }

  get length(): number {
    return this.#entries.length
  }
}

/**
 * The optimizer's view. It holds only the items it was given, never the
 * trajectory itself, so an optimizer cannot reach what it may not see.
 * `entries` is filled by the owning Trajectory; nothing else should hold it.
 */
export class FilteredTrajectory extends ItemLog {}

export class Trajectory extends ItemLog {
  readonly #entries: TrajectoryItem[]
  readonly #filterScope: Scope | null
  /** The view's list: this trajectory's own list until the first hidden item. */
  #filteredEntries: TrajectoryItem[]
  readonly #filtered: FilteredTrajectory | null
  #closed = false
  /** Records an item. Bound, so a target can be handed `trajectory.emit` directly. */
  readonly emit: (item: TrajectoryItem) => void

  /** With a scope, items whose domain it covers also go to `filtered`. */
  constructor(filteredScope: Scope | null = null) {
    const entries: TrajectoryItem[] = []
    super(entries)
    this.#entries = entries
    this.#filterScope = filteredScope
    this.#filteredEntries = entries
    this.#filtered = filteredScope === null ? null : new FilteredTrajectory(entries)
    // Assigned here rather than as a field arrow: a field arrow is named at every construction under
    // tsx/esbuild keepNames (the benches, tests and dev runs), a cost a profile showed per run.
    this.emit = (item) => this.record(item)
  }

  private record(item: TrajectoryItem): void {
    if (this.#closed) throw new EngineRuntimeError('Cannot emit to a closed trajectory')
    const domain = domainOf(item)
    if (domain === null) throw new EngineValueError(`Cannot persist ${item.type} without a security_domain`)
    if (this.#filtered !== null) {
      const visible = attackerSees(this.#filterScope!, domain)
      if (this.#filteredEntries !== this.#entries) {
        if (visible) this.#filteredEntries.push(item)
      } else if (!visible) {
        // The first hidden item: the view keeps what it had, in a list of its own, before the item is added.
        this.#filteredEntries = detachLog(this.#filtered)
      }
    }
    this.#entries.push(item)
  }

  close(): void {
    this.#closed = true
  }

  /**
   * What a run keeps: every item (`keptItems`), and the optimizer's view
   * (`keptView`, the same list while nothing was hidden). Once closed nothing
   * can be added, so the lists are handed over as they are; before, they are
   * copies.
   */
  keptItems(): readonly TrajectoryItem[] {
    return this.#closed ? this.#entries : this.snapshot()
  }

  keptView(): readonly TrajectoryItem[] {
    const view = this.filtered
    return this.#closed ? this.#filteredEntries : view.snapshot()
  }

  get closed(): boolean {
    return this.#closed
  }

  /** The filtered view; throws when no scope was given, as the reference. */
  get filtered(): FilteredTrajectory {
    if (this.#filtered === null) throw new EngineRuntimeError('No filtered view — pass filtered_scope to Trajectory constructor')
    return this.#filtered
  }
}
