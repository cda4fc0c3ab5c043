/**
 * The frontier search on the full space (read-only grants included,
 * GrantLattice) against brute force: the same properties as frontier.test.ts
 * on the scope-only lattice, with a height of twice the number of tags.
 */
import fc from 'fast-check'
import { coverKey, coverLeq, GrantLattice, ThreatModelLattice, type Cover } from '../lattice'
import { forestArb } from '../lattice/testForests'
import { AGENTDOJO_FOREST, buildDomain } from '../tags'
import { searchFrontierSync } from './run'
import { tallyOf, verdictOf, type Observation } from './observation'
import { bruteForce, keys, monotone } from './testOracles'
import { seededRandom } from '../../testing/seededRandom'

const spaceOf = (forest: Parameters<typeof buildDomain>[0]) => new GrantLattice(new ThreatModelLattice(buildDomain(forest)))
const allOf = (space: GrantLattice) => Array.from(space.elements(), (c) => c.slice())

const pick = (covers: readonly Cover[], seeds: readonly number[]) => seeds.map((s) => covers[s % covers.length])
const once = (...tasks: boolean[]): Observation => ({ runs: [tasks] })

describe('frontier search with read-only grants, against brute force on random forests', () => {
  it('finds exactly the minimal wins and maximal losses of a monotone oracle, within (|minimal wins| + |maximal losses|) × (2 × tags + 1)', () => {
    let readOnlyWins = 0
    fc.assert(
      fc.property(
        forestArb(6),
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.constantFrom('low' as const, 'high' as const),
        (forest, seeds, seed) => {
          const space = spaceOf(forest)
          const covers = allOf(space)
          const wins = monotone(pick(covers, seeds))
          const truth = bruteForce(covers, wins)
          const answer = searchFrontierSync(space, (c) => once(wins(c)), { taskCount: 1, seed, counts: true })
          expect(answer.complete).toBe(true)
          expect(keys(answer.claim.minimalWins)).toEqual(truth.minimalWins)
          expect(keys(answer.claim.maximalLosses)).toEqual(truth.maximalLosses)
          expect(answer.evaluations.length).toBeLessThanOrEqual(
            (truth.minimalWins.length + truth.maximalLosses.length) * (space.height + 1),
          )
          expect(new Set(answer.evaluations.map((e) => coverKey(e.cover))).size).toBe(answer.evaluations.length)
          expect(answer.claim.counts).toEqual({
            evaluated: answer.evaluations.length,
            inferred: covers.length - answer.evaluations.length,
            undecided: 0,
          })
          expect(answer.contradictions).toEqual([])
          readOnlyWins += answer.claim.minimalWins.filter((c) => space.modelOf(c).readOnly.length > 0).length
        },
      ),
      { numRuns: 120 },
    )
    // Minimal wins that only read somewhere must have come up, or read-only grants were never really searched.
    expect(readOnlyWins).toBeGreaterThan(0)
  })

  it('per task and for the claim (any task wins), sharing evaluations', () => {
    fc.assert(
      fc.property(forestArb(5), fc.array(fc.array(fc.nat(), { maxLength: 3 }), { minLength: 1, maxLength: 3 }), (forest, taskSeeds) => {
        const space = spaceOf(forest)
        const covers = allOf(space)
        const tasks = taskSeeds.map((s) => monotone(pick(covers, s)))
        const answer = searchFrontierSync(space, (c) => once(...tasks.map((t) => t(c))), { taskCount: tasks.length, perTask: true })
        const claim = bruteForce(covers, (c) => tasks.some((t) => t(c)))
        expect(keys(answer.claim.minimalWins)).toEqual(claim.minimalWins)
        expect(keys(answer.claim.maximalLosses)).toEqual(claim.maximalLosses)
        answer.tasks.forEach((t, i) => {
          const truth = bruteForce(covers, tasks[i])
          expect(keys(t.minimalWins)).toEqual(truth.minimalWins)
          expect(keys(t.maximalLosses)).toEqual(truth.maximalLosses)
        })
      }),
      { numRuns: 60 },
    )
  })

  it('with a non-monotone oracle, reports every evaluated pair where a wider threat model lost and a narrower one won, and nothing else', () => {
    let seen = 0
    fc.assert(
      fc.property(forestArb(5), fc.integer({ min: 1, max: 3 }), fc.nat(), (forest, taskCount, salt) => {
        const space = spaceOf(forest)
        const coin = (c: Cover, t: number) => {
          let h = salt ^ (t * 0x9e3779b1)
          for (const w of c) h = Math.imul(h ^ w, 0x85ebca6b) ^ (h >>> 13)
          return (h & 1) === 1
        }
        const answer = searchFrontierSync(space, (c) => once(...Array.from({ length: taskCount }, (_, t) => coin(c, t))), {
          taskCount,
          perTask: true,
        })
        const expected: string[] = []
        for (const q of ['claim' as const, ...Array.from({ length: taskCount }, (_, i) => i)]) {
          for (const a of answer.evaluations)
            for (const b of answer.evaluations) {
              if (a === b || !coverLeq(a.cover, b.cover)) continue
              if (verdictOf(tallyOf(a.observation, q)) === 'win' && verdictOf(tallyOf(b.observation, q)) === 'loss')
                expected.push(`${q}:${coverKey(a.cover)}<${coverKey(b.cover)}`)
            }
        }
        const reported = answer.contradictions.map((c) => `${c.question}:${coverKey(c.narrower)}<${coverKey(c.wider)}`)
        expect(reported.sort()).toEqual(expected.sort())
        seen += reported.length
      }),
      { numRuns: 60 },
    )
    expect(seen).toBeGreaterThan(0)
  })

  it('resumes from known evaluations without asking for any of them again', () => {
    fc.assert(
      fc.property(forestArb(6), fc.array(fc.nat(), { maxLength: 3 }), fc.nat({ max: 40 }), (forest, seeds, cut) => {
        const space = spaceOf(forest)
        const covers = allOf(space)
        const wins = monotone(pick(covers, seeds))
        const first = searchFrontierSync(space, (c) => once(wins(c)), { taskCount: 1, budgetRuns: cut })
        const asked: string[] = []
        const second = searchFrontierSync(space, (c) => (asked.push(coverKey(c)), once(wins(c))), {
          taskCount: 1,
          known: first.evaluations,
        })
        const before = new Set(first.evaluations.map((e) => coverKey(e.cover)))
        expect(asked.filter((k) => before.has(k))).toEqual([])
        expect(keys(second.claim.minimalWins)).toEqual(bruteForce(covers, wins).minimalWins)
        expect(second.complete).toBe(true)
      }),
      { numRuns: 60 },
    )
  })
})

describe('on the AgentDojo forest with read-only grants (1,002,494,720 threat models), a synthetic oracle', () => {
  it('answers within the bound without listing the space, and every sampled threat model is decided right', () => {
    const space = spaceOf(AGENTDOJO_FOREST)
    expect(space.total).toBe(1_002_494_720n)
    const g = [
      { scope: ['workspace_inbox'], readOnly: [] },
      { scope: ['user'], readOnly: ['system_prompt'] },
      { scope: ['slack_web'], readOnly: ['banking_bank_account'] },
      { scope: [], readOnly: ['tool_catalogue_edit', 'agent_trace_messages'] },
    ].map((m) => space.coverOfModel(m))
    const wins = monotone(g)
    const answer = searchFrontierSync(space, (c) => once(wins(c)), { taskCount: 1 })
    expect(answer.complete).toBe(true)
    expect(keys(answer.claim.minimalWins)).toEqual(keys(g))
    const bound = (answer.claim.minimalWins.length + answer.claim.maximalLosses.length) * (space.height + 1)
    expect(answer.evaluations.length).toBeLessThanOrEqual(bound)
    // Random threat models (random level maps, deterministic): each above a minimal win iff it wins, below a maximal loss iff not.
    const next = seededRandom(12345)
    let wrong = 0
    for (let i = 0; i < 3000; i++) {
      let c = space.empty()
      for (let k = 0; k < 4 * space.height; k++) {
        const b = Math.floor(next() * space.height)
        if (next() < 0.5 && space.canAdd(c, b)) c = space.toggled(c, b)
      }
      const above = answer.claim.minimalWins.some((w) => coverLeq(w, c))
      const below = answer.claim.maximalLosses.some((l) => coverLeq(c, l))
      if (above === below || above !== wins(c)) wrong++
    }
    expect(wrong).toBe(0)
  })
})
