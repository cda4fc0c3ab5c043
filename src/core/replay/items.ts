/**
 * The persisted trajectory item, as far as the replay logic reads it. This is
 * a structural view of superred's results format (semantics §6): the zod
 * schemas in src/core/results parse the files; anything they produce fits here.
 * Fields are snake_case because they are the file's own names.
 */
export interface SurfaceLike {
  readonly name: string
  readonly security_domain?: string | null
}

export interface PersistedEventLike {
  readonly kind: 'event'
  readonly type: string
  readonly event_id?: string
  readonly security_domain?: string | null
  readonly controllable?: SurfaceLike
  readonly observable?: SurfaceLike
}

export interface PersistedResponseLike {
  readonly kind: 'response'
  readonly type: string
  /** A controllable's name on Injection and NoInjection; absent on RunEndResponse. */
  readonly controllable?: string | SurfaceLike | null
  readonly declined_by?: string | null
}

export type PersistedItemLike = PersistedEventLike | PersistedResponseLike

/** How the viewer marks an item (the legend). */
export type ItemMark = 'injection' | 'declined-scope' | 'declined-optimizer' | 'read-only' | 'run-end' | 'observation' | 'call' | 'response'

export const CONTROLLABLE_EVENTS: ReadonlySet<string> = new Set(['ControllablePreCallEvent', 'ControllablePostCallEvent'])

/** The name of the surface an item is about (a controllable or observable), if any. */
export function surfaceName(item: PersistedItemLike): string | null {
  if (item.kind === 'response') {
    const c = item.controllable
    if (c === undefined || c === null) return null
    return typeof c === 'string' ? c : c.name
  }
  return item.controllable?.name ?? item.observable?.name ?? null
}

export function isInjection(item: PersistedItemLike): boolean {
  return item.kind === 'response' && item.type === 'ControllableInjection'
}

export function isControllableEvent(item: PersistedItemLike): boolean {
  return item.kind === 'event' && CONTROLLABLE_EVENTS.has(item.type)
}
