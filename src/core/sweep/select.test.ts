import fc from 'fast-check'
import { buildDomain, CHATBOT_FOREST, distinctCombinations, type Forest } from '../tags'
import { parseIndexRanges } from './ranges'
import { selectionOf, SweepPickError, type Selection } from './select'

const all = (s: Selection) => Array.from({ length: Number(s.count) }, (_, i) => s.at(BigInt(i)))
const sorted = (names: readonly string[]) => [...names].sort()

const arbForest: fc.Arbitrary<Forest> = fc
  .array(fc.option(fc.nat(), { nil: null, freq: 3 }), { minLength: 1, maxLength: 9 })
  .map((parents) => ({
    tags: parents.map((p, i) => ({ name: `t${i}`, parent: p === null || i === 0 ? null : `t${p % i}`, description: '' })),
  }))

describe('selecting threat models by the tags they contain', () => {
  it(
    'every combination holding all the tags, with its reference index, in reference order (brute force)',
    () =>
      fc.assert(
        fc.property(
          arbForest.chain((f) =>
            fc.tuple(
              fc.constant(f),
              fc.subarray(
                f.tags.map((t) => t.name),
                { minLength: 1, maxLength: Math.min(3, f.tags.length) },
              ),
            ),
          ),
          ([forest, tags]) => {
            const domain = buildDomain(forest)
            const expected = distinctCombinations(domain).flatMap((c, i) => {
              const names = c.map((t) => t.name)
              return tags.every((t) => names.includes(t)) ? [{ index: BigInt(i), scope: sorted(names) }] : []
            })
            const got = all(selectionOf(domain, { kind: 'containing', tags }))
            expect(got.map((m) => ({ index: m.index, scope: sorted(m.scope) }))).toEqual(expected)
            expect(got.map((m) => m.rank)).toEqual(expected.map((_, i) => BigInt(i)))
          },
        ),
        { numRuns: 150 },
      ),
    30_000,
  )

  it('refuses an unknown tag and an empty list', () => {
    const domain = buildDomain(CHATBOT_FOREST)
    expect(() => selectionOf(domain, { kind: 'containing', tags: ['user', 'nope'] })).toThrow(/"nope" is not a tag of this forest/)
    expect(() => selectionOf(domain, { kind: 'containing', tags: [] })).toThrow(SweepPickError)
  })
})

describe('index ranges', () => {
  it('parses, merges overlaps, drops #0 and runs an open end to the last', () => {
    const r = parseIndexRanges('5-7, 0-3,4,6-9 ,12-', 15n)
    expect(r.text).toBe('1-9,12-14')
    expect(r.count).toBe(12n)
    expect([...Array(12).keys()].map((k) => r.at(BigInt(k)))).toEqual([1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n, 12n, 13n, 14n])
  })

  it('refuses bad pieces, naming them', () => {
    expect(() => parseIndexRanges('1-3,x', 10n)).toThrow(/'x' is not an index or a range/)
    expect(() => parseIndexRanges('7-3', 10n)).toThrow(/'7-3' runs backwards/)
    expect(() => parseIndexRanges('3-10', 10n)).toThrow(/#10 is not a threat model of this forest \(it has #0 to #9\)/)
    expect(() => parseIndexRanges(' , ', 10n)).toThrow(/no index given/)
  })

  it(
    'at(k) is the k-th index of the union of the ranges (brute force)',
    () =>
      fc.assert(
        fc.property(
          fc
            .integer({ min: 2, max: 300 })
            .chain((total) =>
              fc.tuple(fc.constant(total), fc.array(fc.tuple(fc.nat(total - 1), fc.nat(total - 1)), { minLength: 1, maxLength: 6 })),
            ),
          ([total, pairs]) => {
            const text = pairs.map(([a, b]) => (a === b ? `${a}` : `${Math.min(a, b)}-${Math.max(a, b)}`)).join(',')
            const expected = [
              ...new Set(pairs.flatMap(([a, b]) => Array.from({ length: Math.abs(a - b) + 1 }, (_, i) => Math.min(a, b) + i))),
            ]
              .filter((i) => i !== 0)
              .sort((x, y) => x - y)
            const r = parseIndexRanges(text, BigInt(total))
            expect(r.count).toBe(BigInt(expected.length))
            expect(expected.map((_, k) => Number(r.at(BigInt(k))))).toEqual(expected)
            expect(parseIndexRanges(r.text || '0', BigInt(total)).text).toBe(r.text)
          },
        ),
        { numRuns: 200 },
      ),
    30_000,
  )

  it('a range over a huge forest is two numbers, not a list', () => {
    const r = parseIndexRanges('1-', 10n ** 20n)
    expect(r.count).toBe(10n ** 20n - 1n)
    expect(r.at(10n ** 20n - 2n)).toBe(10n ** 20n - 1n)
  })
})

describe('a list of threat models', () => {
  const domain = buildDomain(CHATBOT_FOREST)
  const reference = distinctCombinations(domain).map((c) => sorted(c.map((t) => t.name)).join(','))

  it('keeps the list order, drops duplicates, and knows the combination index of a plain scope', () => {
    const s = selectionOf(domain, {
      kind: 'list',
      models: [
        { scope: ['user'], readOnly: [] },
        { scope: ['system_prompt', 'user'], readOnly: [] },
        { scope: ['user'], readOnly: [] },
        { scope: ['user'], readOnly: ['model'] },
        { scope: ['system', 'system_prompt'], readOnly: [] },
      ],
    })
    const got = all(s)
    expect(got.map((m) => [m.rank, m.scope, m.readOnly])).toEqual([
      [0n, ['user'], []],
      [1n, ['system_prompt', 'user'], []],
      [2n, ['user'], ['model']],
      [3n, ['system', 'system_prompt'], []],
    ])
    expect(got[0].index).toBe(BigInt(reference.indexOf('user')))
    expect(got[1].index).toBe(BigInt(reference.indexOf('system_prompt,user')))
    // With read_only, or not an antichain: no combination index.
    expect(got[2].index).toBeNull()
    expect(got[3].index).toBeNull()
  })

  it('refuses unknown tags and empty threat models, naming the entry', () => {
    expect(() =>
      selectionOf(domain, {
        kind: 'list',
        models: [
          { scope: ['user'], readOnly: [] },
          { scope: ['usr'], readOnly: [] },
        ],
      }),
    ).toThrow(/threat model \[1\]: "usr" is not a tag of this forest/)
    expect(() => selectionOf(domain, { kind: 'list', models: [{ scope: [], readOnly: [] }] })).toThrow(
      /threat model \[0\]: scope and read_only cannot both be empty/,
    )
  })
})
