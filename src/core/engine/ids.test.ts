import { describe, expect, it } from 'vitest'
import { newEventId } from './ids'

describe('newEventId', () => {
  it('makes distinct uuid4 strings across many batches', () => {
    const ids = Array.from({ length: 2_000 }, () => newEventId())
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('uses every hex digit in the random positions', () => {
    const seen = new Set(
      Array.from({ length: 300 }, () => newEventId())
        .join('')
        .replaceAll('-', ''),
    )
    expect([...seen].sort().join('')).toBe('0123456789abcdef')
  })
})
