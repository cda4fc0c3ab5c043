/**
 * Branded ids: an EventId cannot be passed where another string is expected
 * by accident. They are plain strings at run time.
 */
declare const brand: unique symbol
export type Brand<T, B extends string> = T & { readonly [brand]: B }

/** A uuid4 string, as the reference's `event_id`. */
export type EventId = Brand<string, 'EventId'>

const hex = (b: number) => b.toString(16).padStart(2, '0')

/**
 * A fresh uuid4. `randomUUID` exists only in secure contexts (a page served
 * over plain http on a LAN address has none), `getRandomValues` everywhere.
 */
export function newEventId(): EventId {
  const c = globalThis.crypto
  if (typeof c.randomUUID === 'function') return c.randomUUID() as EventId
  const b = c.getRandomValues(new Uint8Array(16))
  b[6] = (b[6] & 0x0f) | 0x40
  b[8] = (b[8] & 0x3f) | 0x80
  const h = [...b].map(hex).join('')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}` as EventId
}

/** Wraps an id read from disk or the wire (already validated by a schema). */
export function eventIdOf(value: string): EventId {
  return value as EventId
}
