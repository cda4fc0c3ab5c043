/**
 * Scope and read_only in the Controller (semantics §2): fixed sets or per-task
 * resolvers, the construction-time validation with the reference's messages,
 * per-task resolution, and what the optimizer is offered.
 */
import { scopeIncludes, scopeOf, type Scope, type SecurityDomainTag } from '../tags'
import { NotApplicable, type Target, type Task } from './target'
import { EngineValueError, observable, observableValue, type Controllable, type ObservableValue } from './types'

/** Resolves a task's scope once per task; may throw NotApplicable (counts as empty). */
export type ScopeResolver = (task: Task) => Scope
export type ScopeSpec = Scope | ScopeResolver

export function isResolver(spec: ScopeSpec): spec is ScopeResolver {
  return typeof spec === 'function'
}

/** The scope enforced for one task. */
export interface TaskScope {
  readonly write: Scope
  readonly readOnly: Scope
  /** write ∪ readOnly, deduplicated by value as a Python frozenset union. */
  readonly visibility: Scope
}

export interface ScopeMode {
  readonly dynamic: boolean
  /** The run-level scope for naming and hashing: empty in dynamic mode. */
  readonly namingScope: Scope
  readonly namingReadOnly: Scope
  readonly scopeLabel: string | null
}

const EMPTY: Scope = new Set()

/** Validates the Controller's scope arguments exactly as the reference does. */
export function validateScopeArgs(scope: ScopeSpec, readOnly: ScopeSpec, scopeLabel: string | null): ScopeMode {
  const dynamic = isResolver(scope) || isResolver(readOnly)
  if (dynamic) {
    if (scopeLabel === null || scopeLabel.trim() === '') {
      throw new EngineValueError('scope_label is required (non-empty) when scope or read_only is a callable resolver')
    }
    return { dynamic, namingScope: EMPTY, namingReadOnly: EMPTY, scopeLabel }
  }
  const fixedScope = scope as Scope
  const fixedReadOnly = readOnly as Scope
  if (scopeOf([...fixedScope, ...fixedReadOnly]).size === 0) {
    throw new EngineValueError('scope and read_only cannot both be empty')
  }
  if (scopeLabel !== null) {
    throw new EngineValueError('scope_label is only valid when scope or read_only is a callable resolver')
  }
  return { dynamic, namingScope: fixedScope, namingReadOnly: fixedReadOnly, scopeLabel: null }
}

function resolveOne(spec: ScopeSpec, task: Task): Scope {
  if (!isResolver(spec)) return spec
  try {
    return spec(task)
  } catch (error) {
    if (error instanceof NotApplicable) return EMPTY
    throw error
  }
}

/**
 * Resolves both dimensions independently. Throws NotApplicable when nothing
 * is visible (the task is skipped); any other resolver error propagates.
 */
export function resolveTaskScope(scope: ScopeSpec, readOnly: ScopeSpec, task: Task): TaskScope {
  const write = resolveOne(scope, task)
  const read = resolveOne(readOnly, task)
  const visibility = visibilityOf(write, read)
  if (visibility.size === 0) {
    throw new NotApplicable(`no security domain tag resolved for task '${task.goal.description}'; skipping`)
  }
  return { write, readOnly: read, visibility }
}

/** What the optimizer may see: write ∪ read_only, deduplicated by value as a Python frozenset union. */
export function visibilityOf(write: Scope, readOnly: Scope): Scope {
  return scopeOf([...write, ...readOnly])
}

/** scopeIncludes that treats a missing domain as covered by nothing (Python's walk from None). */
export function covers(scope: Scope, tag: SecurityDomainTag | null): boolean {
  return tag !== null && scopeIncludes(scope, tag)
}

/** A read-only controllable, re-presented as an observable with unknown content. */
export function controllableAsObservable(c: Controllable): ObservableValue {
  return observableValue(observable(c.name, c.securityDomain, { description: c.description, observableType: c.valueType }), null)
}

/**
 * Fronts 1 and 2: writable controllables (target order); visible observables
 * (target order), then visible-but-not-writable controllables as observables.
 */
export function offeredSurfaces(target: Target, ts: TaskScope): { controllables: Controllable[]; observables: ObservableValue[] } {
  const all = target.getControllables()
  const controllables = all.filter((c) => covers(ts.write, c.securityDomain))
  const observables = target.getObservables().filter((o) => covers(ts.visibility, o.observable.securityDomain))
  for (const c of all) {
    if (covers(ts.visibility, c.securityDomain) && !covers(ts.write, c.securityDomain)) {
      observables.push(controllableAsObservable(c))
    }
  }
  return { controllables, observables }
}

/**
 * The RunEndEvent's domain. The reference takes `next(iter(visibility))`, an
 * arbitrary member of a hash set; we take the member with the smallest name,
 * which is deterministic (and is what the fixture tree shows).
 */
export function runEndDomain(visibility: Scope): SecurityDomainTag {
  let best: SecurityDomainTag | null = null
  for (const tag of visibility) if (best === null || tag.name < best.name) best = tag
  if (best === null) throw new EngineValueError('scope must contain at least one tag')
  return best
}
