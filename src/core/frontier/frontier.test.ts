import fc from 'fast-check'
import { coverKey, coverLeq, ThreatModelLattice, type Cover } from '../lattice'
import { forestArb } from '../lattice/testForests'
import { AGENTDOJO_FOREST, buildDomain, CHATBOT_FOREST, CombinationCursor } from '../tags'
import { contradictionsOf, searchFrontier, searchFrontierSync, type Evaluation } from './run'
import { tallyOf, verdictOf, wilson, type Observation } from './observation'
import { bruteForce, keys, monotone } from './testOracles'

function allCovers(lattice: ThreatModelLattice): Cover[] {
  const out: Cover[] = []
  const cursor = new CombinationCursor(lattice.domain)
  cursor.next()
  while (cursor.next()) out.push(lattice.coverOfCursor(cursor))
  return out
}

/** Picks `k` threat models of the lattice by hashing seeds: the generators of a random monotone function. */
function pick(covers: readonly Cover[], seeds: readonly number[]): Cover[] {
  return seeds.map((s) => covers[s % covers.length])
}

const once = (...tasks: boolean[]): Observation => ({ runs: [tasks] })

describe('frontier search against brute force on random forests', () => {
  it('finds exactly the minimal wins and maximal losses of a monotone oracle, within (|minimal wins| + |maximal losses|) × (height + 1) evaluations, seeding low or high', () => {
    fc.assert(
      fc.property(
        forestArb(8),
        fc.array(fc.nat(), { minLength: 0, maxLength: 4 }),
        fc.constantFrom('low' as const, 'high' as const),
        (forest, seeds, seed) => {
          const lattice = new ThreatModelLattice(buildDomain(forest))
          const covers = allCovers(lattice)
          const wins = monotone(pick(covers, seeds))
          const truth = bruteForce(covers, wins)
          const answer = searchFrontierSync(lattice, (c) => once(wins(c)), { taskCount: 1, seed, counts: true })
          expect(answer.complete).toBe(true)
          expect(keys(answer.claim.minimalWins)).toEqual(truth.minimalWins)
          expect(keys(answer.claim.maximalLosses)).toEqual(truth.maximalLosses)
          const bound = (truth.minimalWins.length + truth.maximalLosses.length) * (lattice.height + 1)
          expect(answer.evaluations.length).toBeLessThanOrEqual(bound)
          expect(new Set(answer.evaluations.map((e) => coverKey(e.cover))).size).toBe(answer.evaluations.length)
          expect(answer.claim.counts).toEqual({
            evaluated: answer.evaluations.length,
            inferred: covers.length - answer.evaluations.length,
            undecided: 0,
          })
          expect(answer.contradictions).toEqual([])
        },
      ),
      { numRuns: 150 },
    )
  })

  it("per task: each task's frontier and the claim's (any task wins) equal brute force, sharing evaluations", () => {
    fc.assert(
      fc.property(forestArb(7), fc.array(fc.array(fc.nat(), { maxLength: 3 }), { minLength: 1, maxLength: 3 }), (forest, taskSeeds) => {
        const lattice = new ThreatModelLattice(buildDomain(forest))
        const covers = allCovers(lattice)
        const tasks = taskSeeds.map((s) => monotone(pick(covers, s)))
        const answer = searchFrontierSync(lattice, (c) => once(...tasks.map((t) => t(c))), { taskCount: tasks.length, perTask: true })
        const claim = bruteForce(covers, (c) => tasks.some((t) => t(c)))
        expect(keys(answer.claim.minimalWins)).toEqual(claim.minimalWins)
        expect(keys(answer.claim.maximalLosses)).toEqual(claim.maximalLosses)
        answer.tasks.forEach((t, i) => {
          const truth = bruteForce(covers, tasks[i])
          expect(t.question).toBe(i)
          expect(keys(t.minimalWins)).toEqual(truth.minimalWins)
          expect(keys(t.maximalLosses)).toEqual(truth.maximalLosses)
        })
        expect(answer.contradictions).toEqual([])
      }),
      { numRuns: 80 },
    )
  })

  it('with a non-monotone oracle, reports every evaluated pair where a wider threat model lost and a narrower one won, and nothing else', () => {
    let seen = 0
    fc.assert(
      fc.property(forestArb(7), fc.integer({ min: 1, max: 3 }), fc.nat(), (forest, taskCount, salt) => {
        const lattice = new ThreatModelLattice(buildDomain(forest))
        // Deterministic noise: a hash of the cover, the task and the salt decides.
        const coin = (c: Cover, t: number) => {
          let h = salt ^ (t * 0x9e3779b1)
          for (const w of c) h = Math.imul(h ^ w, 0x85ebca6b) ^ (h >>> 13)
          return (h & 1) === 1
        }
        const answer = searchFrontierSync(lattice, (c) => once(...Array.from({ length: taskCount }, (_, t) => coin(c, t))), {
          taskCount,
          perTask: true,
        })
        const expected: string[] = []
        for (const q of ['claim' as const, ...Array.from({ length: taskCount }, (_, i) => i)]) {
          for (const a of answer.evaluations) {
            for (const b of answer.evaluations) {
              if (a === b || !coverLeq(a.cover, b.cover)) continue
              if (verdictOf(tallyOf(a.observation, q)) === 'win' && verdictOf(tallyOf(b.observation, q)) === 'loss') {
                expected.push(`${q}:${coverKey(a.cover)}<${coverKey(b.cover)}`)
              }
            }
          }
        }
        const reported = answer.contradictions.map((c) => `${c.question}:${coverKey(c.narrower)}<${coverKey(c.wider)}`)
        expect(reported.sort()).toEqual(expected.sort())
        seen += reported.length
      }),
      { numRuns: 80 },
    )
    // The property above must have had contradictions to report, or it proved nothing.
    expect(seen).toBeGreaterThan(0)
  })

  it('resumes from known evaluations without asking for any of them again, and lands on the same frontier', () => {
    fc.assert(
      fc.property(forestArb(8), fc.array(fc.nat(), { maxLength: 3 }), fc.nat({ max: 40 }), (forest, seeds, cut) => {
        const lattice = new ThreatModelLattice(buildDomain(forest))
        const covers = allCovers(lattice)
        const wins = monotone(pick(covers, seeds))
        const first = searchFrontierSync(lattice, (c) => once(wins(c)), { taskCount: 1, budgetRuns: cut })
        const asked: string[] = []
        const second = searchFrontierSync(lattice, (c) => (asked.push(coverKey(c)), once(wins(c))), {
          taskCount: 1,
          known: first.evaluations,
        })
        const before = new Set(first.evaluations.map((e) => coverKey(e.cover)))
        expect(asked.filter((k) => before.has(k))).toEqual([])
        const truth = bruteForce(covers, wins)
        expect(keys(second.claim.minimalWins)).toEqual(truth.minimalWins)
        expect(second.complete).toBe(true)
        if (first.evaluations.length === cut) expect(first.complete).toBe(cut >= second.evaluations.length)
      }),
      { numRuns: 80 },
    )
  })
})

describe('noise and budget', () => {
  const lattice = new ThreatModelLattice(buildDomain(CHATBOT_FOREST))

  it('repeats: the majority decides (a tie wins), and the counts stay with the evaluation', async () => {
    const user = lattice.coverOfNames(['user'])
    // user wins 2 of 3 runs; everything else loses 3 of 3 save system, which wins 1 of 3 (loses by majority).
    const observe = (c: Cover): Observation => {
      const userWins = coverLeq(user, c)
      const systemOnly = !userWins && coverLeq(lattice.coverOfNames(['system']), c)
      return { runs: [[userWins], [userWins || systemOnly], [false]] }
    }
    const answer = await searchFrontier(lattice, observe, { taskCount: 1, repeat: 3 })
    expect(answer.claim.minimalWins.map((c) => lattice.scopeNames(c))).toEqual([['user']])
    const userEval = answer.evaluations.find((e) => lattice.scopeNames(e.cover).join() === 'user')
    expect(userEval && tallyOf(userEval.observation, 'claim')).toEqual({ wins: 2, runs: 3 })
    expect(verdictOf({ wins: 1, runs: 2 })).toBe('win')
    expect(verdictOf({ wins: 0, runs: 0 })).toBe('loss')
    const w = wilson({ wins: 1, runs: 1 })
    expect(w.low).toBeCloseTo(0.2065, 3)
    expect(w.high).toBe(1)
  })

  it('a run budget stops the search, says it is incomplete, and never spends more than it was given', () => {
    const answer = searchFrontierSync(lattice, (c) => ({ runs: [[coverLeq(lattice.coverOfNames(['model']), c)], [false]] }), {
      taskCount: 1,
      repeat: 2,
      budgetRuns: 7,
    })
    expect(answer.evaluations.length).toBe(3)
    expect(answer.complete).toBe(false)
  })

  it('a contradiction found between evaluations is a finding with both tallies', () => {
    const narrow = lattice.coverOfNames(['user'])
    const wide = lattice.coverOfNames(['user', 'system'])
    const evals: Evaluation[] = [
      { cover: narrow, observation: once(true) },
      { cover: wide, observation: once(false) },
    ]
    expect(contradictionsOf(evals, 'claim')).toEqual([
      { question: 'claim', narrower: narrow, narrowerTally: { wins: 1, runs: 1 }, wider: wide, widerTally: { wins: 0, runs: 1 } },
    ])
  })
})

describe('on the AgentDojo forest (351,974 threat models), a synthetic oracle', () => {
  it('answers with a few hundred evaluations, within the bound, and agrees with a check of every threat model', () => {
    const lattice = new ThreatModelLattice(buildDomain(AGENTDOJO_FOREST))
    const g = [
      ['workspace_inbox'],
      ['user', 'system_prompt'],
      ['banking_bank_account', 'slack_web'],
      ['tool_catalogue_edit', 'agent_trace_messages'],
    ].map((s) => lattice.coverOfNames(s))
    const wins = monotone(g)
    const answer = searchFrontierSync(lattice, (c) => once(wins(c)), { taskCount: 1 })
    expect(answer.complete).toBe(true)
    expect(keys(answer.claim.minimalWins)).toEqual(keys(g))
    const bound = (answer.claim.minimalWins.length + answer.claim.maximalLosses.length) * (lattice.height + 1)
    expect(answer.evaluations.length).toBeLessThanOrEqual(bound)
    expect(answer.evaluations.length).toBeLessThan(1000)
    // Every threat model is decided by the two frontiers, and decided right.
    const cursor = new CombinationCursor(lattice.domain)
    const c = lattice.empty()
    cursor.next()
    let wrong = 0
    while (cursor.next()) {
      lattice.coverOfCursor(cursor, c)
      const above = answer.claim.minimalWins.some((w) => coverLeq(w, c))
      const below = answer.claim.maximalLosses.some((l) => coverLeq(c, l))
      if (above === below || above !== wins(c)) wrong++
    }
    expect(wrong).toBe(0)
  })
})
