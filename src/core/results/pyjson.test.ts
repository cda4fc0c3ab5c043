import { describe, expect, it } from 'vitest'
import { seededRandom } from '../../testing/seededRandom'
import { MARKER, PyFloat, pyDumps, pyFloatRepr } from './pyjson'

const PIECES = [
  'a',
  'Zz',
  ' ',
  '"',
  '\\',
  '\n',
  '\t',
  '\u0000',
  '\u001f',
  '\u007f',
  'é',
  '中',
  '😀',
  '\ud800',
  '\udfff',
  '</script>',
  '\u2028',
]

/**
 * Values of every kind the printer meets, with object keys already in sorted order, so that printing with
 * sortKeys (the walker alone) must give the same text as printing without (native for the plain containers).
 */
function valueOf(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * (depth > 3 ? 6 : 9))
  switch (pick) {
    case 0:
      return null
    case 1:
      return next() < 0.5
    case 2:
      return Math.floor((next() - 0.5) * 2 ** 40)
    case 3:
      return [0.5, 1e-7, 1e16, 123.25, -0.1, 1e21, 1764600000.123, 0.0001, 0.00012, 9.5e15, 1.5e16, 0.00009][Math.floor(next() * 12)]
    case 4:
      return new PyFloat([0, 1, 0.5, 1e-5, 2e16, -3][Math.floor(next() * 6)])
    case 5:
      return Array.from({ length: Math.floor(next() * 4) }, () => PIECES[Math.floor(next() * PIECES.length)]).join('')
    case 6:
      return Array.from({ length: Math.floor(next() * 4) }, () => valueOf(next, depth + 1))
    default: {
      const keys = Array.from({ length: Math.floor(next() * 4) }, (_, i) => `k${i}${PIECES[Math.floor(next() * 12)]}`).sort()
      const record: Record<string, unknown> = {}
      for (const k of keys) record[k] = valueOf(next, depth + 1)
      return record
    }
  }
}

describe('pyDumps', () => {
  it('prints plain containers natively exactly as the walker prints them, floats, escapes and depth included', () => {
    for (let seed = 1; seed <= 400; seed++) {
      const value = valueOf(seededRandom(seed), 0)
      for (const options of [{ indent: 2, ensureAscii: false }, { indent: 2 }, {}, { indent: 4, ensureAscii: true }]) {
        for (const depth of [0, 2]) {
          const expected = pyDumps(value, { ...options, sortKeys: true }, depth)
          expect(pyDumps(value, options, depth), `seed ${seed} ${JSON.stringify(options)} depth ${depth}`).toBe(expected)
        }
      }
    }
  })

  it('prints as Python json.dumps does', () => {
    // Each expected text is what CPython 3.11 json.dumps printed for the same value (compact: separators=(",", ":")).
    const value = { a: [1, 'é', new PyFloat(1)], b: { c: 1e-7, d: [] as unknown[], e: {} }, f: '\u007f\n', g: [1764600000.125, 0.0001] }
    expect(pyDumps(value, { indent: 2, ensureAscii: false })).toBe(
      '{\n  "a": [\n    1,\n    "é",\n    1.0\n  ],\n  "b": {\n    "c": 1e-07,\n    "d": [],\n    "e": {}\n  },\n  "f": "\u007f\\n",\n  "g": [\n    1764600000.125,\n    0.0001\n  ]\n}',
    )
    expect(pyDumps(value)).toBe('{"a":[1,"\\u00e9",1.0],"b":{"c":1e-07,"d":[],"e":{}},"f":"\\u007f\\n","g":[1764600000.125,0.0001]}')
    expect(pyDumps({ x: ['😀'] }, { indent: 2 })).toBe('{\n  "x": [\n    "\\ud83d\\ude00"\n  ]\n}')
    // indent 0 breaks lines without indenting (JSON.stringify would print it compact).
    expect(pyDumps({ x: [1] }, { indent: 0 })).toBe('{\n"x": [\n1\n]\n}')
  })

  it('prints floats as Python repr does on both sides of the plain-notation range', () => {
    // CPython 3.11's repr of the same doubles.
    const cases: Array<[number, string]> = [
      [5e15, '5000000000000000.0'],
      [0.1, '0.1'],
      [1 / 3, '0.3333333333333333'],
      [1e-4, '0.0001'],
      [9.999999999999999e-5, '9.999999999999999e-05'],
      [1e16, '1e+16'],
      [2 ** 53, '9007199254740992.0'],
      [-1234.5, '-1234.5'],
    ]
    for (const [x, repr] of cases) expect(pyFloatRepr(x)).toBe(repr)
  })

  it('leaves what JSON.stringify would print differently to the walker: dates, classes, functions, NaN', () => {
    class Box {
      readonly v = 1
    }
    const value = { when: new Date(0), box: new Box(), fn: () => 1, nan: NaN, list: [undefined, Infinity] }
    expect(pyDumps(value)).toBe('{"when":{},"box":{"v":1},"fn":null,"nan":NaN,"list":[null,Infinity]}')
  })

  it('prints a string that looks like a float marker as the string it is, beside real floats', () => {
    for (const look of [`${MARKER}1.0`, `${MARKER}`, `x${MARKER}2.5`]) {
      const value = { s: look, f: new PyFloat(1), nested: [{ t: look, g: new PyFloat(0.5) }], [look]: new PyFloat(3) }
      const text = pyDumps(value, { indent: 2, ensureAscii: false })
      const key = JSON.stringify(look)
      expect(text).toBe(
        `{\n  "s": ${key},\n  "f": 1.0,\n  "nested": [\n    {\n      "t": ${key},\n      "g": 0.5\n    }\n  ],\n  ${key}: 3.0\n}`,
      )
    }
  })

  it('leaves JSON.stringify of a PyFloat outside pyDumps as it was', () => {
    expect(JSON.stringify({ f: new PyFloat(1) })).toBe('{"f":{"value":1}}')
  })
})
