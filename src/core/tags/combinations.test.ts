import fc from 'fast-check'
import { distinctCombinations } from './combinations'
import { combinationAt, combinationIndex, countCombinations } from './count'
import { buildDomain, type Forest } from './forest'
import { AGENTDOJO_FOREST, CHATBOT_FOREST } from './templates'
import type { SecurityDomain } from './domain'

const forest = (...pairs: Array<[string, string | null]>): Forest => ({
  tags: pairs.map(([name, parent]) => ({ name, parent, description: '' })),
})
const names = (combos: ReturnType<typeof distinctCombinations>) => combos.map((c) => c.map((t) => t.name).sort())

describe('distinctCombinations: the reference order', () => {
  it('two siblings: empty first, the node itself last', () => {
    const d = buildDomain(forest(['root', null], ['left', 'root'], ['right', 'root']))
    expect(names(distinctCombinations(d))).toEqual([[], ['right'], ['left'], ['left', 'right'], ['root']])
  })

  it('two roots: the last root varies fastest', () => {
    const d = buildDomain(forest(['r1', null], ['c1', 'r1'], ['r2', null]))
    expect(names(distinctCombinations(d))).toEqual([[], ['r2'], ['c1'], ['c1', 'r2'], ['r1'], ['r1', 'r2']])
  })

  it('input order decides the order', () => {
    expect(names(distinctCombinations(buildDomain(forest(['a', null], ['b', null]))))).toEqual([[], ['b'], ['a'], ['a', 'b']])
    expect(names(distinctCombinations(buildDomain(forest(['b', null], ['a', null]))))).toEqual([[], ['a'], ['b'], ['a', 'b']])
  })

  it('a chain of 3 has 4; the empty forest has only the empty set', () => {
    expect(names(distinctCombinations(buildDomain(forest(['a', null], ['b', 'a'], ['c', 'b']))))).toEqual([[], ['c'], ['b'], ['a']])
    expect(names(distinctCombinations(buildDomain({ tags: [] })))).toEqual([[]])
  })

  it('the guide forests: chatbot 18, AgentDojo 351,974', () => {
    expect(distinctCombinations(buildDomain(CHATBOT_FOREST))).toHaveLength(18)
    expect(countCombinations(buildDomain(CHATBOT_FOREST))).toBe(18n)
    expect(countCombinations(buildDomain(AGENTDOJO_FOREST))).toBe(351_974n)
  })

  it('counts a 10,000-tag chain without overflowing the stack', () => {
    const tags = Array.from({ length: 10_000 }, (_, i) => ({ name: `t${i}`, parent: i ? `t${i - 1}` : null, description: '' }))
    expect(countCombinations(buildDomain({ tags }))).toBe(10_001n)
    const chain = buildDomain({ tags })
    expect(combinationIndex(chain, [chain.get('t9999')!])).toBe(1n)
    expect(combinationIndex(chain, [chain.get('t0')!])).toBe(10_000n)
  })
})

/** Random forests: each tag's parent is an earlier tag or none, then the list is shuffled. */
const arbForest = fc.array(fc.option(fc.nat(), { nil: null, freq: 3 }), { minLength: 0, maxLength: 11 }).chain((parents) =>
  fc
    .shuffledSubarray(
      parents.map((_, i) => i),
      { minLength: parents.length, maxLength: parents.length },
    )
    .map((order) =>
      forest(...order.map((i): [string, string | null] => [`t${i}`, parents[i] === null || i === 0 ? null : `t${parents[i]! % i}`])),
    ),
)

const isAncestor = (a: { parent: unknown }, b: { parent: unknown }) => {
  for (let n = b.parent as typeof b | null; n; n = n.parent as typeof b | null) if (n === a) return true
  return false
}

describe('distinctCombinations: properties on random forests', () => {
  const withDomain = (run: (d: SecurityDomain) => void) =>
    fc.assert(
      fc.property(arbForest, (f) => run(buildDomain(f))),
      { numRuns: 150 },
    )

  it('every combination is an antichain', () =>
    withDomain((d) => {
      // One expect per forest: an expect per pair made this the slowest test of the suite.
      const nested = distinctCombinations(d).filter((combo) => combo.some((a) => combo.some((b) => a !== b && isAncestor(a, b))))
      expect(nested).toEqual([])
    }))

  it('all combinations are distinct, the empty set first', () =>
    withDomain((d) => {
      const keys = names(distinctCombinations(d)).map((c) => c.join(','))
      expect(new Set(keys).size).toBe(keys.length)
      expect(keys[0]).toBe('')
    }))

  it('the count equals the enumeration, and combinationAt decodes each index', () =>
    withDomain((d) => {
      const all = distinctCombinations(d)
      expect(countCombinations(d)).toBe(BigInt(all.length))
      all.forEach((combo, i) => {
        expect(
          combinationAt(d, BigInt(i))
            .map((t) => t.name)
            .sort(),
        ).toEqual(combo.map((t) => t.name).sort())
      })
    }))

  it('combinationIndex inverts combinationAt, whatever order the tags come in', () =>
    withDomain((d) => {
      distinctCombinations(d).forEach((combo, i) => {
        expect(combinationIndex(d, [...combo].reverse())).toBe(BigInt(i))
      })
    }))

  it('combinationIndex: null for a tag with its ancestor, or a look-alike tag', () =>
    withDomain((d) => {
      for (const a of d.tags) for (const b of d.tags) if (a !== b && isAncestor(a, b)) expect(combinationIndex(d, [a, b])).toBeNull()
      const other = buildDomain({ tags: d.tags.map((t) => ({ name: t.name, parent: t.parent?.name ?? null, description: '' })) })
      if (other.tags.length > 0) expect(combinationIndex(d, [other.tags[0]])).toBeNull()
    }))

  it('every antichain of the forest is enumerated (checked by brute force)', () =>
    withDomain((d) => {
      if (d.tags.length > 9) return
      let antichains = 0
      for (let mask = 0; mask < 1 << d.tags.length; mask++) {
        const picked = d.tags.filter((_, i) => mask & (1 << i))
        if (picked.every((a) => picked.every((b) => !isAncestor(a, b)))) antichains++
      }
      expect(distinctCombinations(d)).toHaveLength(antichains)
    }))

  it('includes is reflexive, transitive and antisymmetric', () =>
    withDomain((d) => {
      for (const a of d.tags) {
        expect(a.includes(a)).toBe(true)
        for (const b of d.tags) {
          if (a !== b && a.includes(b)) expect(b.includes(a)).toBe(false)
          for (const c of d.tags) if (a.includes(b) && b.includes(c)) expect(a.includes(c)).toBe(true)
        }
      }
    }))
})
