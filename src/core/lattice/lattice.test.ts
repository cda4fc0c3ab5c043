import fc from 'fast-check'
import { forestArb } from './testForests'
import { buildDomain, CHATBOT_FOREST, CombinationCursor, distinctCombinations, scopeIncludes } from '../tags'
import { coverEquals, coverLeq, coverRank, ThreatModelLattice } from './lattice'
import { compareModels, grantsOf, levelOf } from './order'
import { describeModel } from './words'

describe('the capability order on distinct threat models', () => {
  it('is scope_includes: a ≤ b iff every tag a grants is granted by b, and the cover round-trips to the same antichain and index', () => {
    fc.assert(
      fc.property(forestArb(), (forest) => {
        const domain = buildDomain(forest)
        const lattice = new ThreatModelLattice(domain)
        const combos = distinctCombinations(domain).slice(1)
        expect(BigInt(combos.length)).toBe(lattice.total)
        const covers = combos.map((c) => lattice.coverOfNames(c.map((t) => t.name)))
        const cursor = new CombinationCursor(domain)
        cursor.next()
        combos.forEach((combo, i) => {
          cursor.next()
          expect(coverEquals(lattice.coverOfCursor(cursor), covers[i])).toBe(true)
          expect(lattice.scopeNames(covers[i])).toEqual(combo.map((t) => t.name).sort())
          expect(lattice.indexOf(covers[i])).toBe(BigInt(i + 1))
        })
        // One expect per forest, not per pair: the pairs are the slow part.
        const wrong: string[] = []
        for (let i = 0; i < combos.length; i++) {
          for (let j = 0; j < combos.length; j++) {
            const byTags = combos[i].every((t) => scopeIncludes(combos[j], t))
            if (coverLeq(covers[i], covers[j]) !== byTags || (i !== j && coverEquals(covers[i], covers[j]))) wrong.push(`${i}≤${j}`)
          }
        }
        expect(wrong).toEqual([])
      }),
      { numRuns: 60 },
    )
  })

  it('steps one tag at a time: dropping a top or adding a tag whose children are held stays a distinct threat model, so the height is the number of tags', () => {
    fc.assert(
      fc.property(forestArb(), fc.nat(), (forest, seed) => {
        const lattice = new ThreatModelLattice(buildDomain(forest))
        // Climb from nothing to everything, one grant at a time.
        let c = lattice.empty()
        let steps = 0
        for (let moved = true; moved;) {
          moved = false
          for (let k = 0; k < lattice.height; k++) {
            const v = (k + seed) % lattice.height
            if (!lattice.canAdd(c, v)) continue
            const up = lattice.toggled(c, v)
            expect(coverLeq(c, up)).toBe(true)
            expect(lattice.isTop(up, v)).toBe(true)
            c = up
            steps++
            moved = true
            break
          }
        }
        expect(steps).toBe(lattice.height)
        expect(coverRank(c)).toBe(lattice.height)
      }),
      { numRuns: 60 },
    )
  })
})

describe('the order with read_only, on the chatbot forest', () => {
  const lattice = new ThreatModelLattice(buildDomain(CHATBOT_FOREST))
  const m = (scope: string[], readOnly: string[] = []) => grantsOf(lattice, { scope, readOnly })

  it('per tag: not granted < read only < read & write, a grant covering the subtree', () => {
    expect(levelOf(lattice, m(['system']), 'model')).toBe('write')
    expect(levelOf(lattice, m(['user'], ['system']), 'system_prompt')).toBe('read')
    expect(levelOf(lattice, m(['user']), 'model')).toBe('none')
    expect(compareModels(m(['system_prompt']), m(['system']))).toBe('below')
    expect(compareModels(m([], ['system']), m(['system']))).toBe('below')
    expect(compareModels(m(['user'], ['system_prompt']), m(['user'], ['system']))).toBe('below')
    expect(compareModels(m(['system']), m(['system_prompt', 'model', 'model_identity']))).toBe('above')
    expect(compareModels(m(['system'], ['user']), m(['user'], ['system']))).toBe('incomparable')
    expect(compareModels(m(['user'], ['user']), m(['user']))).toBe('equal')
  })

  it('says a threat model in words, tag names as given', () => {
    expect(describeModel({ scope: ['inbox'], readOnly: [] })).toBe('an attacker who writes inbox and reads nothing else')
    expect(describeModel({ scope: ['model', 'user', 'x<b>'], readOnly: ['system_prompt'] })).toBe(
      'an attacker who writes model, user and x<b> and reads system_prompt and nothing else',
    )
  })
})
