import { describe, expect, it } from 'vitest'
import { joinPath, parentOf } from './storage'
import { seededRandom } from '../../testing/seededRandom'

/** The definition the loop must keep: split every piece on '/', drop empty and '.' segments, join with '/'. */
const byDefinition = (...parts: string[]) =>
  parts
    .flatMap((p) => p.split('/'))
    .filter((p) => p !== '' && p !== '.')
    .join('/')

describe('joinPath', () => {
  it('joins pieces and drops empty and dot segments', () => {
    expect(joinPath('a', 'b/c', 'd.json')).toBe('a/b/c/d.json')
    expect(joinPath('', '/a//b/', './c/.', '')).toBe('a/b/c')
    expect(joinPath()).toBe('')
    expect(joinPath('..', 'x/../y', '.hidden', '..b')).toBe('../x/../y/.hidden/..b')
    expect(parentOf(joinPath('a', 'b', 'c'))).toBe('a/b')
  })

  it('agrees with its definition on random pieces', () => {
    const alphabet = ['a', '/', '.', 'é', '..', '']
    const next = seededRandom(7)
    for (let n = 0; n < 2000; n++) {
      const parts = Array.from({ length: Math.floor(next() * 4) }, () =>
        Array.from({ length: Math.floor(next() * 6) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(''),
      )
      expect(joinPath(...parts), JSON.stringify(parts)).toBe(byDefinition(...parts))
    }
  })
})
