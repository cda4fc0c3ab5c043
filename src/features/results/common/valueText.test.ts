import { jsonPreview, oneLine, previewOf, visibleText } from './valueText'

describe('display text helpers', () => {
  it('shows control characters as escapes, keeping newlines and tabs', () => {
    expect(visibleText('a\x00b\x1bc\nd\te')).toBe('a\\x00b\\x1bc\nd\te')
  })
  it('previews at most 8 lines or 600 characters, saying when it cut', () => {
    expect(previewOf('short')).toEqual({ text: 'short', cut: false })
    const many = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n')
    expect(previewOf(many).text.split('\n')).toHaveLength(8)
    expect(previewOf(many).cut).toBe(true)
    expect(previewOf('x'.repeat(5000)).text).toHaveLength(600)
  })
  it('previews a huge object without serialising all of it', () => {
    // Counts the elements the preview reads: it must stop near its budget, not walk a million.
    let reads = 0
    const numbers = new Proxy(
      Array.from({ length: 1_000_000 }, (_, i) => i),
      {
        get(target, key, receiver) {
          if (typeof key === 'string' && /^\d+$/.test(key)) reads++
          return Reflect.get(target, key, receiver)
        },
      },
    )
    const text = jsonPreview({ b: numbers, a: 'x'.repeat(10_000_000) }, 200)
    expect(text.startsWith('{"b":[0,1,2,3')).toBe(true)
    expect(text).toHaveLength(200)
    expect(reads).toBeLessThan(100)
    expect(jsonPreview({ a: 'x'.repeat(10_000_000), b: numbers }, 200)).toHaveLength(200)
    expect(jsonPreview({ k: [1, null, true, 'z'] }, 100)).toBe('{"k":[1,null,true,"z"]}')
  })
  it('folds whitespace for a table row', () => {
    expect(oneLine('a\n\n  b\tc')).toBe('a b c')
    expect(oneLine({ x: 'y' })).toBe('{"x":"y"}')
  })
})
