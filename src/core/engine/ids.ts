/**
 * Branded ids: an EventId cannot be passed where another string is expected
 * by accident. They are plain strings at run time.
 */
declare const brand: unique symbol
export type Brand<T, B extends string> = T & { readonly [brand]: B }

/** A uuid4 string, as the reference's `event_id`. */
export type EventId = Brand<string, 'EventId'>

/** Per byte value, its two lowercase hex digits as character codes. */
const HEX = new Uint8Array(512)
for (let v = 0; v < 256; v++) {
  const digits = v.toString(16).padStart(2, '0')
  HEX[2 * v] = digits.charCodeAt(0)
  HEX[2 * v + 1] = digits.charCodeAt(1)
}
const DASH = 0x2d
const UUID_CHARS = 36
/** Ids made per refill: one random draw and one decode for all of them. */
const BATCH = 256

const random = new Uint8Array(16 * BATCH)
const text = new Uint8Array(UUID_CHARS * BATCH)
const decoder = new TextDecoder()
let pool = ''
let next = BATCH

function refill(): void {
  globalThis.crypto.getRandomValues(random)
  let o = 0
  for (let id = 0; id < BATCH; id++) {
    const b = id * 16
    random[b + 6] = (random[b + 6] & 0x0f) | 0x40 // version 4
    random[b + 8] = (random[b + 8] & 0x3f) | 0x80 // RFC 4122 variant
    for (let i = 0; i < 16; i++) {
      if (i === 4 || i === 6 || i === 8 || i === 10) text[o++] = DASH
      const v = random[b + i]
      text[o++] = HEX[2 * v]
      text[o++] = HEX[2 * v + 1]
    }
  }
  pool = decoder.decode(text)
  next = 0
}

/**
 * A fresh uuid4 (getRandomValues, which every context has; randomUUID exists
 * only in secure ones). Made in batches and cut from one flat string: every
 * event gets one, and a profile of the Controller showed Node's randomUUID at
 * ~4.7 µs and ~450 retained bytes an id (its string is a rope of small
 * pieces), most of the run loop's garbage collection.
 */
export function newEventId(): EventId {
  if (next === BATCH) refill()
  const start = next * UUID_CHARS
  next++
  return pool.slice(start, start + UUID_CHARS) as EventId
}

/** Wraps an id read from disk or the wire (already validated by a schema). */
export function eventIdOf(value: string): EventId {
  return value as EventId
}
