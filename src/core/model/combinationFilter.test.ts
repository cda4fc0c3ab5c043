import fc from 'fast-check'
import { AGENTDOJO_FOREST, buildDomain, combinationAt, distinctCombinations, type Forest } from '../tags'
import { filterCombinations } from './combinationFilter'

const forest = (parents: Array<number | null>): Forest => ({
  tags: parents.map((p, i) => ({ name: `t${i}`, parent: p === null || i === 0 ? null : `t${p % i}`, description: '' })),
})

describe('filterCombinations', () => {
  it('with nothing required it is the whole list, in reference order', () => {
    const d = buildDomain(AGENTDOJO_FOREST)
    const f = filterCombinations(d, [])
    expect(f.count).toBe(351_974n)
    for (const i of [0n, 1n, 1234n, 351_973n]) {
      expect(f.at(i).index).toBe(i)
      expect(
        f
          .at(i)
          .tags.map((t) => t.name)
          .sort(),
      ).toEqual(
        combinationAt(d, i)
          .map((t) => t.name)
          .sort(),
      )
    }
  })

  it('counts the AgentDojo threat models that grant workspace_inbox', () => {
    const d = buildDomain(AGENTDOJO_FOREST)
    const f = filterCombinations(d, [d.get('workspace_inbox')!])
    // system 16*? : every combination of the other roots times workspace's siblings: computed by brute force below too.
    const brute = distinctCombinations(d).filter((c) => c.some((t) => t.name === 'workspace_inbox')).length
    expect(f.count).toBe(BigInt(brute))
    expect(f.at(0n).tags.map((t) => t.name)).toEqual(['workspace_inbox'])
  })

  it('a tag with its ancestor matches nothing', () => {
    const d = buildDomain(AGENTDOJO_FOREST)
    expect(filterCombinations(d, [d.get('tools')!, d.get('slack_web')!]).count).toBe(0n)
  })

  it('equals brute-force filtering on random forests, order and indices included (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.nat(), { nil: null, freq: 3 }), { minLength: 1, maxLength: 9 }),
        fc.array(fc.nat(), { maxLength: 2 }),
        (parents, picks) => {
          const d = buildDomain(forest(parents))
          const required = [...new Set(picks.map((p) => d.tags[p % d.tags.length]))]
          const all = distinctCombinations(d)
          const expected = all
            .map((c, index) => ({ index: BigInt(index), names: c.map((t) => t.name).sort() }))
            .filter((e) => required.every((r) => e.names.includes(r.name)))
          const f = filterCombinations(d, required)
          expect(f.count).toBe(BigInt(expected.length))
          expected.forEach((e, i) => {
            const got = f.at(BigInt(i))
            expect(got.index).toBe(e.index)
            expect(got.tags.map((t) => t.name).sort()).toEqual(e.names)
          })
        },
      ),
      { numRuns: 300 },
    )
  })
})
