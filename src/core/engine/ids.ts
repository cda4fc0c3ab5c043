/**
 * Branded ids: an EventId cannot be passed where another string is expected
 * by accident. They are plain strings at run time.
 */
declare const brand: unique symbol
export type Brand<T, B extends string> = T & { readonly [brand]: B }

/** A uuid4 string, as the reference's `event_id`. */
export type EventId = Brand<string, 'EventId'>

/** A fresh uuid4 event id. `crypto.randomUUID` exists in browsers, workers and Node 20. */
export function newEventId(): EventId {
  return globalThis.crypto.randomUUID() as EventId
}

/** Wraps an id read from disk or the wire (already validated by a schema). */
export function eventIdOf(value: string): EventId {
  return value as EventId
}
