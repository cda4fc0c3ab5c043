/**
 * A ring of shared memory that carries file texts to the writer thread as
 * UTF-8, encoded straight into place: posting a string copies it into the
 * message, the thread copies it out into a new string, and writing it
 * encodes it again (in a sweep, posting ~80 MB of texts cost the main thread
 * ~0.5 s; encoding them here costs a fraction of that, and the thread writes
 * the bytes as they are).
 *
 * Slots are taken at the head and given back in the order they were taken
 * (the thread does the writes in order), so the free space is at most two
 * runs: from the head to the end, and from the start to the oldest slot in
 * use. A text that does not fit returns null, and its caller sends the
 * string as before.
 */
export interface RingSlot {
  /** Where the bytes start, and how many there are. */
  readonly at: number
  readonly size: number
  /** Bytes skipped at the end of the ring to start this slot at 0, given back with it. */
  readonly skipped: number
}

const encoder = new TextEncoder()

export class TextRing {
  readonly buffer: SharedArrayBuffer
  private readonly bytes: Uint8Array
  private head = 0
  /** The start of the oldest slot in use. */
  private tail = 0
  private used = 0

  constructor(capacity: number) {
    this.buffer = new SharedArrayBuffer(capacity)
    this.bytes = new Uint8Array(this.buffer)
  }

  /** Encodes `text` into a free run and takes it, or returns null when it does not fit (or is empty: nothing to carry). */
  put(text: string): RingSlot | null {
    // Every slot holds a byte at least, so the ring is empty exactly when no slot is in use.
    if (text.length === 0) return null
    const capacity = this.bytes.length
    if (this.used === 0) this.head = this.tail = 0
    const full = this.used > 0 && this.head === this.tail
    if (full) return null
    if (this.head >= this.tail) {
      // Free: head..end, then 0..tail.
      const slot = this.encodeAt(text, this.head, capacity, 0)
      if (slot !== null || this.tail === 0) return slot
      return this.encodeAt(text, 0, this.tail, capacity - this.head)
    }
    return this.encodeAt(text, this.head, this.tail, 0)
  }

  /** Gives back the oldest slot in use (slots come back in the order they were taken). */
  release(slot: RingSlot): void {
    this.used -= slot.size + slot.skipped
    this.tail = slot.at + slot.size
    if (this.used === 0) this.head = this.tail = 0
  }

  /** Everything given back at once (the thread stopped). */
  clear(): void {
    this.used = 0
    this.head = this.tail = 0
  }

  private encodeAt(text: string, from: number, to: number, skipped: number): RingSlot | null {
    // Each UTF-16 unit is at least one byte: too long a text is turned away without encoding it.
    if (text.length > to - from) return null
    const { read, written } = encoder.encodeInto(text, this.bytes.subarray(from, to))
    if (read < text.length) return null
    this.head = from + written
    this.used += written + skipped
    return { at: from, size: written, skipped }
  }
}
