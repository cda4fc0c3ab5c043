/**
 * Undo/redo as snapshots of an immutable value: committing pushes the present
 * onto `past` and clears `future`. Snapshots share structure (edits copy only
 * what they change), so a long history of a large forest stays cheap.
 */
export interface History<T> {
  readonly past: readonly T[]
  readonly present: T
  readonly future: readonly T[]
}

export const HISTORY_LIMIT = 300

export function startHistory<T>(present: T): History<T> {
  return { past: [], present, future: [] }
}

/** Records `next` as the new present; the same object means "no change" and records nothing. */
export function commit<T>(h: History<T>, next: T, limit = HISTORY_LIMIT): History<T> {
  if (next === h.present) return h
  const past = [...h.past, h.present]
  return { past: past.length > limit ? past.slice(past.length - limit) : past, present: next, future: [] }
}

export function undo<T>(h: History<T>): History<T> {
  if (h.past.length === 0) return h
  return { past: h.past.slice(0, -1), present: h.past[h.past.length - 1], future: [h.present, ...h.future] }
}

export function redo<T>(h: History<T>): History<T> {
  if (h.future.length === 0) return h
  return { past: [...h.past, h.present], present: h.future[0], future: h.future.slice(1) }
}
