import { describe, expect, it } from 'vitest'
import { deeplyNestedJson } from '../../testing/hostileContent'
import { protoKeyPath } from './protoKeys'

describe('protoKeyPath', () => {
  it('names the first own __proto__ key by its whole path through objects and arrays', () => {
    expect(protoKeyPath(JSON.parse('{"tasks":[{"goal":"g"},{"config":{"__proto__":{"x":"1"}}}]}'))).toEqual([
      'tasks',
      1,
      'config',
      '__proto__',
    ])
    expect(protoKeyPath(JSON.parse('{"__proto__":1}'))).toEqual(['__proto__'])
  })

  it('finds nothing where an inherited __proto__ is all there is', () => {
    expect(protoKeyPath({ a: [1, { b: 'c' }], d: null })).toBeNull()
    expect(protoKeyPath('text')).toBeNull()
  })

  it('walks a value nested 100,000 deep and still names a key at the bottom', () => {
    expect(protoKeyPath(JSON.parse(deeplyNestedJson(100_000)))).toBeNull()
    const bottom = `${'['.repeat(100_000)}{"__proto__":0}${']'.repeat(100_000)}`
    const path = protoKeyPath(JSON.parse(bottom))!
    expect(path).toHaveLength(100_001)
    expect(path.at(-1)).toBe('__proto__')
  })
})
