import { describe, expect, it } from 'vitest'
import { seededRandom } from '../../testing/seededRandom'
import { TextRing, type RingSlot } from './textRing'

const decoder = new TextDecoder()
/** The text a slot holds (copied out: a decoder may refuse a view of shared memory). */
const read = (ring: TextRing, slot: RingSlot) => decoder.decode(new Uint8Array(ring.buffer, slot.at, slot.size).slice())

describe('TextRing', () => {
  it('encodes a text as UTF-8 in place, and turns away one that does not fit without losing what it holds', () => {
    const ring = new TextRing(32)
    const a = ring.put('é日本😀')!
    expect(a).toEqual({ at: 0, size: Buffer.byteLength('é日本😀'), skipped: 0 })
    expect(read(ring, a)).toBe('é日本😀')
    expect(ring.put('x'.repeat(33 - a.size))).toBeNull()
    const b = ring.put('y'.repeat(32 - a.size))!
    expect(read(ring, b)).toBe('y'.repeat(32 - a.size))
    expect(ring.put('')).toBeNull()
    expect(read(ring, a)).toBe('é日本😀')
  })

  it('wraps to the start once the oldest slots are given back, skipping the end it cannot use', () => {
    const ring = new TextRing(10)
    const a = ring.put('aaaa')!
    const b = ring.put('bbbb')!
    expect(ring.put('ccc')).toBeNull()
    ring.release(a)
    const c = ring.put('ccc')!
    expect(c).toEqual({ at: 0, size: 3, skipped: 2 })
    expect(read(ring, b)).toBe('bbbb')
    ring.release(b)
    ring.release(c)
    expect(ring.put('d'.repeat(10))).toEqual({ at: 0, size: 10, skipped: 0 })
  })

  it('never lets two slots in use overlap: 5,000 random puts and in-order releases, every held text intact after each', () => {
    const random = seededRandom(42)
    const pieces = ['a', 'é', '日', '😀', '\n', '"']
    const ring = new TextRing(257)
    const held: Array<[RingSlot, string]> = []
    let taken = 0
    let refused = 0
    for (let i = 0; i < 5_000; i++) {
      if (held.length > 0 && random() < 0.45) {
        ring.release(held.shift()![0])
      } else {
        const text = Array.from({ length: Math.floor(random() * 60) }, () => pieces[Math.floor(random() * pieces.length)]).join('')
        const slot = ring.put(text)
        if (slot === null) refused++
        else {
          taken++
          held.push([slot, text])
        }
      }
      for (const [slot, text] of held) expect(read(ring, slot)).toBe(text)
    }
    expect(taken).toBeGreaterThan(1_000)
    expect(refused).toBeGreaterThan(10)
  })
})
