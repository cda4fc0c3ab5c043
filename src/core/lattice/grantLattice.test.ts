import fc from 'fast-check'
import { forestArb } from './testForests'
import { AGENTDOJO_FOREST, buildDomain, CHATBOT_FOREST, distinctCombinations } from '../tags'
import { ASSISTANT_FOREST } from '../../reference-targets/assistant/forest'
import { countGrants, GrantLattice } from './grantLattice'
import { coverEquals, coverKey, coverLeq, ThreatModelLattice } from './lattice'
import { grantsLeq, grantsOf, levelOf, type Level } from './order'
import { describeModel } from './words'
import type { Decider } from './space'

/** Brute force: every map tag -> level that never drops from a parent to a child, as scope and read_only names. */
function everyLevelMap(lattice: ThreatModelLattice): Level[][] {
  const levels: Level[] = ['none', 'read', 'write']
  let maps: Level[][] = [[]]
  for (let v = 0; v < lattice.height; v++) {
    const p = lattice.parent[v]
    maps = maps.flatMap((m) => levels.filter((l) => p < 0 || levels.indexOf(l) >= levels.indexOf(m[p])).map((l) => [...m, l]))
  }
  return maps
}

describe('the full space of threat models, read-only grants included', () => {
  it("holds exactly the level maps that never drop from parent to child, each once, the order being order.ts's grantsLeq", () => {
    fc.assert(
      fc.property(forestArb(6), (forest) => {
        const base = new ThreatModelLattice(buildDomain(forest))
        const space = new GrantLattice(base)
        const elements = Array.from(space.elements(), (c) => c.slice())
        const maps = everyLevelMap(base).filter((m) => m.some((l) => l !== 'none'))
        expect(BigInt(maps.length)).toBe(space.total)
        expect(elements.length).toBe(maps.length)
        expect(new Set(elements.map(coverKey)).size).toBe(elements.length)
        const wrong: string[] = []
        for (const c of elements) {
          // The named model round-trips, and its levels are those of a level map.
          const m = space.modelOf(c)
          if (!coverEquals(space.coverOfModel(m), c)) wrong.push(`round trip ${describeModel(m)}`)
          const g = grantsOf(base, m)
          if (!coverEquals(g.write, space.grants(c).write) || !coverEquals(g.visible, space.grants(c).visible))
            wrong.push(`grants ${describeModel(m)}`)
          // read_only names only what the scope does not write, an antichain
          if (m.readOnly.some((r) => levelOf(base, g, r) !== 'read')) wrong.push(`read_only writes ${describeModel(m)}`)
        }
        for (const a of elements)
          for (const b of elements) {
            if (coverLeq(a, b) !== grantsLeq(space.grants(a), space.grants(b))) wrong.push('order')
          }
        expect(wrong).toEqual([])
      }),
      { numRuns: 40 },
    )
  })

  it("its scope-only elements are exactly the distinct threat models (the sweep's and the designer's), which keep their numbers", () => {
    fc.assert(
      fc.property(forestArb(6), (forest) => {
        const domain = buildDomain(forest)
        const base = new ThreatModelLattice(domain)
        const space = new GrantLattice(base)
        const scopeOnly = Array.from(space.elements(), (c) => c.slice()).filter((c) => space.modelOf(c).readOnly.length === 0)
        expect(BigInt(scopeOnly.length)).toBe(base.total)
        expect(scopeOnly.map((c) => space.label(c)).sort()).toEqual(
          distinctCombinations(domain)
            .slice(1)
            .map((_, i) => String(i + 1))
            .sort(),
        )
      }),
      { numRuns: 40 },
    )
  })

  it('steps one bit at a time from nothing to everything: the height is twice the number of tags', () => {
    fc.assert(
      fc.property(forestArb(7), fc.nat(), (forest, seed) => {
        const space = new GrantLattice(new ThreatModelLattice(buildDomain(forest)))
        let c = space.empty()
        let steps = 0
        for (let moved = true; moved;) {
          moved = false
          for (let k = 0; k < space.height && !moved; k++) {
            const b = (k + seed) % space.height
            if (!space.canAdd(c, b)) continue
            const up = space.toggled(c, b)
            expect(space.isTop(up, b)).toBe(true)
            c = up
            steps++
            moved = true
          }
        }
        expect(steps).toBe(space.height)
      }),
      { numRuns: 60 },
    )
  })

  it("counts: the sweep's spaces are unchanged, and the read-only spaces are 3^n-style products", () => {
    const count = (f: typeof CHATBOT_FOREST) => {
      const base = new ThreatModelLattice(buildDomain(f))
      return [base.total, new GrantLattice(base).total, countGrants(base)]
    }
    // chatbot: system (3 children) gives 1 + 1 + 27 + 8 + 1... per level: 36 maps; user 3; minus the empty one.
    expect(count(CHATBOT_FOREST)).toEqual([17n, 36n * 3n - 1n, 36n * 3n])
    // assistant: system (3 leaves) 36, user 3, tools (4 leaves) 81 + 16 + 1 = 98.
    expect(count(ASSISTANT_FOREST)).toEqual([305n, 36n * 3n * 98n - 1n, 36n * 3n * 98n])
    expect(count(AGENTDOJO_FOREST)[0]).toBe(351_973n)
  })

  it('says a read-only model in words: what it writes, and what it only reads', () => {
    const space = new GrantLattice(new ThreatModelLattice(buildDomain(ASSISTANT_FOREST)))
    const c = space.coverOfModel({ scope: ['inbox'], readOnly: ['calendar'] })
    expect(space.modelOf(c)).toEqual({ scope: ['inbox'], readOnly: ['calendar'] })
    expect(describeModel(space.modelOf(c))).toBe('an attacker who writes inbox and reads calendar and nothing else')
    // A read-only grant under a written tag changes nothing.
    expect(space.modelOf(space.coverOfModel({ scope: ['tools'], readOnly: ['inbox'] }))).toEqual({ scope: ['tools'], readOnly: [] })
    expect(space.label(c)).toMatch(/^\d+\/\d+$/)
  })

  it('the pass yields nothing once everything is decided, and only undecided elements before', () => {
    const space = new GrantLattice(new ThreatModelLattice(buildDomain(CHATBOT_FOREST)))
    const win = space.coverOfModel({ scope: ['user'], readOnly: [] })
    const loss = space.coverOfModel({ scope: ['system'], readOnly: ['user'] })
    const d: Decider = {
      aboveWin: (c) => coverLeq(win, c),
      belowLoss: (c) => coverLeq(c, loss),
      wins: () => [win],
      losses: () => [loss],
    }
    expect([...space.pass(d)]).toEqual([])
    const none: Decider = { aboveWin: () => false, belowLoss: () => false, wins: () => [], losses: () => [] }
    const first = space.pass(none).next()
    expect(first.done).toBe(false)
  })
})
