/**
 * The frontier search with a sequential test (docs/frontier.md, "A frontier
 * that holds on a noisy target"), on random forests with random monotone
 * success rates, against brute force (every threat model's rate is known):
 * the decisions it makes are wrong at most as often as its confidence allows,
 * it never spends a run after a decision, an undecided threat model has had
 * every repeat, and a stopped search resumes without rerunning what it settled.
 */
import fc from 'fast-check'
import { coverKey, coverLeq, GrantLattice, ThreatModelLattice, type Cover, type SearchSpace } from '../lattice'
import { forestArb } from '../lattice/testForests'
import { buildDomain } from '../tags'
import { seededRandom } from '../../testing/seededRandom'
import { outcomesOf, type Question } from './observation'
import { deciderFor, searchFrontierSync, type FrontierAnswer } from './run'
import { decide, type SequentialTest } from './sequential'
import { bernoulli, monotoneRate } from './testOracles'

const PULLS = [0.05, 0.2, 0.35, 0.45, 0.55, 0.7, 0.95]

/** Random generators with random pulls: a monotone rate, far from the threshold for some threat models and near it for others. */
const ratesArb = (tasks: number) =>
  fc.array(fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 3 }), { minLength: tasks, maxLength: tasks })

function ratesOf(space: SearchSpace, picks: ReadonlyArray<ReadonlyArray<[number, number]>>) {
  const covers = Array.from(space.elements(), (c) => c.slice())
  return picks.map((gs) => monotoneRate(gs.map(([c, p]) => ({ cover: covers[c % covers.length], pull: PULLS[p % PULLS.length] }))))
}

/** Decisions of a question's evaluations against the truth: how many were made, how many were wrong. */
function scoreDecisions(answer: FrontierAnswer, q: Question, truth: (c: Cover) => number, test: SequentialTest) {
  const decided = deciderFor(test)
  let decisions = 0
  let wrong = 0
  for (const e of answer.evaluations) {
    const d = decided(e, q)
    if (d === 'undecided') continue
    decisions++
    const p = truth(e.cover)
    if (d === 'win' ? p <= test.threshold : p >= test.threshold) wrong++
  }
  return { decisions, wrong }
}

describe('the frontier search with a sequential test, against known rates', () => {
  it('is wrong in at most 1 - confidence of its decisions, spends no run after a decision, and runs an undecided threat model every repeat', () => {
    const test: SequentialTest = { confidence: 0.9, threshold: 0.5, maxRepeats: 60 }
    let decisions = 0
    let wrong = 0
    let undecided = 0
    fc.assert(
      fc.property(
        forestArb(6),
        fc.boolean(),
        ratesArb(1),
        fc.nat(),
        fc.constantFrom('low' as const, 'high' as const),
        (forest, readOnly, picks, seed, start) => {
          const base = new ThreatModelLattice(buildDomain(forest))
          const space: SearchSpace = readOnly ? new GrantLattice(base) : base
          const [rate] = ratesOf(space, picks)
          const answer = searchFrontierSync(space, bernoulli([rate], seededRandom(seed)), { taskCount: 1, test, seed: start })
          expect(answer.complete).toBe(true)
          const s = scoreDecisions(answer, 'claim', rate, test)
          decisions += s.decisions
          wrong += s.wrong
          for (const e of answer.evaluations) {
            const runs = outcomesOf(e.observation, 'claim')
            expect(runs.length).toBeGreaterThan(0)
            expect(runs.length).toBeLessThanOrEqual(test.maxRepeats)
            const d = decide(runs, test)
            // The last run decided it (no run is spent once decided), or every repeat was made.
            if (d === 'undecided') {
              expect(runs.length).toBe(test.maxRepeats)
              undecided++
            } else expect(decide(runs.slice(0, -1), test)).toBe('undecided')
          }
          expect(new Set(answer.evaluations.map((e) => coverKey(e.cover))).size).toBe(answer.evaluations.length)
          // The walk bound of docs/frontier.md, with the undecided threat models counted beside the frontiers.
          const ends = answer.claim.minimalWins.length + answer.claim.maximalLosses.length + answer.claim.undecided.length
          expect(answer.evaluations.length).toBeLessThanOrEqual(ends * (space.height + 1))
        },
      ),
      { numRuns: 120 },
    )
    // The property must have met both decisions and undecided threat models, or it proved little.
    expect(decisions).toBeGreaterThan(300)
    expect(undecided).toBeGreaterThan(10)
    expect(wrong / decisions).toBeLessThanOrEqual(1 - test.confidence)
  })

  it('per task: every question is settled on the runs it needed, and each is wrong at most as often as the confidence allows', () => {
    const test: SequentialTest = { confidence: 0.9, threshold: 0.4, maxRepeats: 40 }
    let decisions = 0
    let wrong = 0
    let grown = 0
    fc.assert(
      fc.property(forestArb(5), ratesArb(2), fc.nat(), (forest, picks, seed) => {
        const space = new ThreatModelLattice(buildDomain(forest))
        const rates = ratesOf(space, picks)
        const claimRate = (c: Cover) => 1 - rates.reduce((stays, r) => stays * (1 - r(c)), 1)
        const answer = searchFrontierSync(space, bernoulli(rates, seededRandom(seed)), { taskCount: 2, perTask: true, test })
        for (const [q, truth] of [
          ['claim', claimRate],
          [0, rates[0]],
          [1, rates[1]],
        ] as const) {
          const s = scoreDecisions(answer, q, truth, test)
          decisions += s.decisions
          wrong += s.wrong
        }
        const decided = deciderFor(test)
        for (const e of answer.evaluations) {
          // A threat model a task's search asked for again grew beyond what decided the claim.
          if (decided(e, 'claim') !== 'undecided' && decide(outcomesOf(e.observation, 'claim').slice(0, -1), test) !== 'undecided') grown++
        }
        // Each task's minimal wins are threat models its own runs decided as wins.
        answer.tasks.forEach((t) =>
          t.minimalWins.forEach((w) => {
            const e = answer.evaluations.find((x) => coverKey(x.cover) === coverKey(w))!
            expect(decided(e, t.question)).toBe('win')
          }),
        )
      }),
      { numRuns: 60 },
    )
    expect(decisions).toBeGreaterThan(200)
    expect(grown).toBeGreaterThan(0)
    expect(wrong / decisions).toBeLessThanOrEqual(1 - test.confidence)
  })

  it('a run budget stops it mid-evaluation; resumed, it finishes that evaluation and reruns nothing it settled', () => {
    const test: SequentialTest = { confidence: 0.95, threshold: 0.5, maxRepeats: 80 }
    fc.assert(
      fc.property(forestArb(6), ratesArb(1), fc.nat(), fc.integer({ min: 1, max: 300 }), (forest, picks, seed, budget) => {
        const space = new ThreatModelLattice(buildDomain(forest))
        const [rate] = ratesOf(space, picks)
        const oracle = bernoulli([rate], seededRandom(seed))
        const first = searchFrontierSync(space, oracle, { taskCount: 1, test, budgetRuns: budget })
        const spent = first.evaluations.reduce((n, e) => n + e.observation.runs.length, 0)
        expect(spent).toBeLessThanOrEqual(budget)
        const decided = deciderFor(test)
        const settled = new Map(
          first.evaluations
            .filter((e) => decided(e, 'claim') !== 'undecided' || e.observation.runs.length === test.maxRepeats)
            .map((e) => [coverKey(e.cover), e.observation.runs.length]),
        )
        const asked: string[] = []
        const second = searchFrontierSync(space, (c, k) => (asked.push(coverKey(c)), oracle(c, k)), {
          taskCount: 1,
          test,
          known: first.evaluations,
        })
        expect(second.complete).toBe(true)
        expect(asked.filter((k) => settled.has(k))).toEqual([])
        for (const e of second.evaluations) {
          const had = settled.get(coverKey(e.cover))
          if (had !== undefined) expect(e.observation.runs.length).toBe(had)
        }
        if (!first.complete) expect(spent + first.evaluations.length).toBeGreaterThan(0)
      }),
      { numRuns: 60 },
    )
  })

  it('an evaluated threat model above a decided win wins, whatever its own test said', () => {
    const space = new ThreatModelLattice(
      buildDomain({
        tags: [
          { name: 'a', parent: null, description: '' },
          { name: 'b', parent: null, description: '' },
        ],
      }),
    )
    const a = space.coverOfNames(['a'])
    // Threat model {a} always wins; everything else is a coin at the threshold, which cannot be decided.
    let draws = 0
    const coin = () => draws++ % 2 === 0
    const answer = searchFrontierSync(space, (c, k) => ({ runs: Array.from({ length: k }, () => [coverLeq(a, c) ? true : coin()]) }), {
      taskCount: 1,
      test: { confidence: 0.95, threshold: 0.5, maxRepeats: 30 },
      seed: 'high',
      counts: true,
    })
    expect(answer.claim.minimalWins.map((c) => space.scopeNames(c))).toEqual([['a']])
    expect(answer.claim.undecided.map((c) => space.scopeNames(c))).toEqual([['b']])
    // {b} undecided; {a}, {a, b} decided (one by inference, or both evaluated).
    expect(answer.claim.counts!.undecided).toBe(1)
    expect(answer.claim.counts!.evaluated + answer.claim.counts!.inferred).toBe(2)
  })
})
