import { deeplyNestedJson, deeplyNestedObjectJson } from '../../testing/hostileContent'
import { jsonDeeperThan, JsonTooDeepError, MAX_JSON_DEPTH, parseBoundedJson } from './boundedJson'

describe('bounded JSON', () => {
  it('counts nesting of arrays and objects, not brackets inside strings', () => {
    expect(jsonDeeperThan(deeplyNestedJson(MAX_JSON_DEPTH))).toBe(false)
    expect(jsonDeeperThan(deeplyNestedJson(MAX_JSON_DEPTH + 1))).toBe(true)
    expect(jsonDeeperThan(deeplyNestedObjectJson(3), 3)).toBe(false)
    expect(jsonDeeperThan(deeplyNestedObjectJson(4), 3)).toBe(true)
    // Brackets in strings, escaped quotes included, do not count.
    expect(jsonDeeperThan(JSON.stringify({ a: '[[[[{{{{\\"[[[[' }), 2)).toBe(false)
    expect(jsonDeeperThan(JSON.stringify(['"]]]]"', [['x']]]), 2)).toBe(true)
  })

  it('refuses 100,000 levels with a clear error instead of parsing them', () => {
    expect(() => parseBoundedJson(deeplyNestedJson(100_000))).toThrow(JsonTooDeepError)
    expect(() => parseBoundedJson(deeplyNestedJson(100_000))).toThrow('JSON nested deeper than 1,000 levels')
    expect(parseBoundedJson('{"a":[1,{"b":"]"}]}')).toEqual({ a: [1, { b: ']' }] })
  })
})
