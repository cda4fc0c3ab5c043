import fc from 'fast-check'
import { distinctCombinations } from './combinations'
import { combinationsJsonChunks } from './combinationsJson'
import { combinationAt, countCombinations } from './count'
import { CombinationCursor } from './cursor'
import type { SecurityDomain } from './domain'
import { buildDomain, type Forest } from './forest'
import type { SecurityDomainTag } from './tag'
import { AGENTDOJO_FOREST, CHATBOT_FOREST } from './templates'

const forest = (...pairs: Array<[string, string | null]>): Forest => ({
  tags: pairs.map(([name, parent]) => ({ name, parent, description: '' })),
})

/**
 * superred's `distinct_combinations`, ported line for line (recursive
 * `_antichains`, list comprehensions, frozenset unions as sorted name lists):
 * the oracle the cursor must match in order and content.
 */
function referenceCombinations(domain: SecurityDomain): string[][] {
  const union = (a: string[], b: string[]) => [...new Set([...a, ...b])].sort()
  const antichains = (node: SecurityDomainTag): string[][] => {
    const kids = domain.childrenOf(node)
    if (kids.length === 0) return [[], [node.name]]
    let without: string[][] = [[]]
    for (const child of kids) {
      const childAc = antichains(child)
      without = without.flatMap((existing) => childAc.map((n) => union(existing, n)))
    }
    without.push([node.name])
    return without
  }
  let result: string[][] = [[]]
  for (const root of domain.roots) {
    const tree = antichains(root)
    result = result.flatMap((existing) => tree.map((n) => union(existing, n)))
  }
  return result
}

const walk = (domain: SecurityDomain) => {
  const out: string[][] = []
  const cursor = new CombinationCursor(domain)
  while (cursor.next()) out.push(cursor.names())
  return out
}

const arbForest = fc.array(fc.option(fc.nat(), { nil: null, freq: 3 }), { minLength: 0, maxLength: 12 }).chain((parents) =>
  fc
    .shuffledSubarray(
      parents.map((_, i) => i),
      { minLength: parents.length, maxLength: parents.length },
    )
    .map((order) =>
      forest(...order.map((i): [string, string | null] => [`t${i}`, parents[i] === null || i === 0 ? null : `t${parents[i]! % i}`])),
    ),
)

describe('CombinationCursor', () => {
  it("walks exactly superred's list, in its order, on random forests", () => {
    fc.assert(
      fc.property(arbForest, (f) => {
        const d = buildDomain(f)
        expect(walk(d)).toEqual(referenceCombinations(d))
      }),
      { numRuns: 300 },
    )
  })

  it('walks the guide forests as superred does (chatbot 18, AgentDojo 351,974)', () => {
    const chatbot = buildDomain(CHATBOT_FOREST)
    expect(walk(chatbot)).toEqual(referenceCombinations(chatbot))
    const dojo = buildDomain(AGENTDOJO_FOREST)
    const cursor = new CombinationCursor(dojo)
    let n = 0
    let last: string[] = []
    while (cursor.next()) {
      n++
      if (n === 1) expect(cursor.size).toBe(0)
      last = cursor.names()
    }
    expect(n).toBe(351_974)
    expect(last).toEqual(['system', 'tools', 'user'])
    expect(cursor.next()).toBe(false)
  })

  it("lists each combination's tags in forest pre-order, as distinctCombinations always has", () => {
    const d = buildDomain(forest(['b', null], ['a', null], ['b2', 'b'], ['b1', 'b']))
    const combos = distinctCombinations(d).map((c) => c.map((t) => t.name))
    expect(combos).toContainEqual(['b2', 'b1', 'a'])
    expect(
      combos.every((c) => c.every((name, i) => i === 0 || ['b', 'b2', 'b1', 'a'].indexOf(c[i - 1]) < ['b', 'b2', 'b1', 'a'].indexOf(name))),
    ).toBe(true)
  })

  it('seek lands on combinationAt(index) and steps on from there', () => {
    fc.assert(
      fc.property(arbForest, fc.nat(), (f, pick) => {
        const d = buildDomain(f)
        const all = referenceCombinations(d)
        const index = pick % all.length
        const cursor = new CombinationCursor(d).seek(BigInt(index))
        expect(cursor.next()).toBe(true)
        expect(cursor.names()).toEqual(
          combinationAt(d, BigInt(index))
            .map((t) => t.name)
            .sort(),
        )
        const rest: string[][] = [cursor.names()]
        while (cursor.next()) rest.push(cursor.names())
        expect(rest).toEqual(all.slice(index))
      }),
      { numRuns: 200 },
    )
  })

  it('seek refuses an index outside the list, naming the range', () => {
    const d = buildDomain(CHATBOT_FOREST)
    expect(() => new CombinationCursor(d).seek(18n)).toThrow('combination index 18 is outside 0..17')
    expect(() => new CombinationCursor(d).seek(-1n)).toThrow(RangeError)
  })

  it('walks a 10,000-deep chain and the empty forest', () => {
    const tags = Array.from({ length: 10_000 }, (_, i) => ({ name: `c${i}`, parent: i ? `c${i - 1}` : null, description: '' }))
    const chain = buildDomain({ tags })
    const cursor = new CombinationCursor(chain)
    let n = 0
    while (cursor.next()) n++
    expect(BigInt(n)).toBe(countCombinations(chain))
    expect(walk(buildDomain({ tags: [] }))).toEqual([[]])
  })
})

describe('combinationsJsonChunks', () => {
  it('prints what JSON.stringify of the sorted name lists prints, in small chunks too', () => {
    fc.assert(
      fc.property(arbForest, fc.integer({ min: 1, max: 64 }), (f, chunkChars) => {
        const d = buildDomain(f)
        const text = [...combinationsJsonChunks(d, chunkChars)].join('')
        expect(text).toBe(`${JSON.stringify(referenceCombinations(d))}\n`)
      }),
      { numRuns: 150 },
    )
  })

  it('quotes names JSON needs to escape, and sorts them by code point', () => {
    const d = buildDomain(forest(['é"\\', null], ['Z\n', null], ['a', null]))
    const parsed = JSON.parse([...combinationsJsonChunks(d)].join('')) as string[][]
    expect(parsed.at(-1)).toEqual(['Z\n', 'a', 'é"\\'])
  })
})
