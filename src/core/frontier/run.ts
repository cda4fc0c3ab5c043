/**
 * The frontier for a claim, and optionally for each of its tasks, over one
 * attacker's evaluations. The claim's search runs first; each task's search
 * then starts from every evaluation made so far (one evaluation gives a
 * verdict for every task), so per-task frontiers cost little more.
 *
 * `known` evaluations (a resumed run's) are knowledge from the start and are
 * never asked for again. A budget in Controller runs stops the search with
 * what is decided; the answer then says it is incomplete.
 *
 * With a sequential test (`test`, `redscope frontier --confidence`), an
 * evaluation is not a fixed number of runs: the session asks for the same
 * threat model again, a batch at a time, until the test decides the question
 * being searched or `maxRepeats` runs were made (sequential.ts). Another
 * question's search may later ask for more runs of a threat model that did
 * not decide it: the evaluation grows, and is still one evaluation.
 */
import { coverEquals, coverKey, coverLeq, type Cover, type SearchSpace } from '../lattice'
import { Knowledge, type Settled } from './knowledge'
import { outcomesOf, tallyOf, verdictOf, type Observation, type Question, type Tally } from './observation'
import { frontierSteps, tally, type Seed } from './search'
import { decide, runsBeforeADecision, type Decision, type SequentialTest } from './sequential'

export interface Evaluation {
  readonly cover: Cover
  readonly observation: Observation
}

export interface Contradiction {
  readonly question: Question
  /** The narrower threat model, which won... */
  readonly narrower: Cover
  readonly narrowerTally: Tally
  /** ...and a strictly wider one, which lost. */
  readonly wider: Cover
  readonly widerTally: Tally
}

export interface QuestionFrontier {
  readonly question: Question
  readonly minimalWins: Cover[]
  readonly maximalLosses: Cover[]
  /** Evaluated threat models whose test ended undecided (always none without a sequential test). */
  readonly undecided: Cover[]
  /** Filled when the caller asked for counts (a full scan). */
  readonly counts: { evaluated: number; inferred: number; undecided: number } | null
}

export interface FrontierAnswer {
  readonly evaluations: readonly Evaluation[]
  /** True when every question's frontiers account for every threat model; false when the budget or a stop cut it short. */
  readonly complete: boolean
  readonly claim: QuestionFrontier
  readonly tasks: QuestionFrontier[]
  readonly contradictions: Contradiction[]
}

export interface FrontierProgress {
  readonly question: Question
  readonly evaluations: number
  readonly last: Evaluation | null
}

export interface FrontierSearchOptions {
  readonly taskCount: number
  readonly perTask?: boolean
  /** The questions to search, in order, instead of the claim then (with perTask) every task: a shard's tasks. */
  readonly questions?: readonly Question[]
  readonly seed?: Seed
  readonly repeat?: number
  /** Decide each evaluation by a sequential test on repeated runs instead of the majority of `repeat` runs. */
  readonly test?: SequentialTest
  /** At most this many Controller runs in all (known evaluations included): evaluations × repeat, or the runs made with a test. */
  readonly budgetRuns?: number
  readonly known?: readonly Evaluation[]
  readonly signal?: AbortSignal
  /** Count evaluated / inferred / undecided per question in the answer (a scan of the lattice per question). */
  readonly counts?: boolean
  readonly onProgress?: (p: FrontierProgress) => void
}

/** Runs the claim `runs` times on a threat model (FrontierSession.runsWanted: `repeat`, or a sequential test's next batch). */
export type Evaluate = (cover: Cover, runs: number) => Promise<Observation> | Observation

/** What an evaluation decides for a question: the majority of its runs, or a sequential test's decision. */
export type Decider = (e: Evaluation, q: Question) => Decision

const byMajority: Decider = (e, q) => verdictOf(tallyOf(e.observation, q))

/** The decider of a search: by majority, or by the test (cached per evaluation: a decision replays every run). */
export function deciderFor(test: SequentialTest | undefined): Decider {
  if (test === undefined) return byMajority
  const cache = new WeakMap<Evaluation, Map<Question, Decision>>()
  return (e, q) => {
    let m = cache.get(e)
    if (m === undefined) cache.set(e, (m = new Map()))
    let d = m.get(q)
    if (d === undefined) m.set(q, (d = decide(outcomesOf(e.observation, q), test)))
    return d
  }
}

/** The minimal wins and maximal losses among evaluated threat models, and those whose test ended undecided. */
function frontierOf(
  evaluations: readonly Evaluation[],
  q: Question,
  decided: Decider,
): { minimalWins: Cover[]; maximalLosses: Cover[]; undecided: Cover[] } {
  const wins = evaluations.filter((e) => decided(e, q) === 'win').map((e) => e.cover)
  const losses = evaluations.filter((e) => decided(e, q) === 'loss').map((e) => e.cover)
  return {
    minimalWins: wins.filter((w) => !wins.some((o) => o !== w && coverLeq(o, w) && !coverEquals(o, w))),
    maximalLosses: losses.filter((l) => !losses.some((o) => o !== l && coverLeq(l, o) && !coverEquals(o, l))),
    undecided: evaluations.filter((e) => decided(e, q) === 'undecided').map((e) => e.cover),
  }
}

/** Every evaluated pair where a strictly wider threat model lost and a narrower one won: findings, never smoothed away. */
export function contradictionsOf(evaluations: readonly Evaluation[], q: Question, decided: Decider = byMajority): Contradiction[] {
  const out: Contradiction[] = []
  for (const a of evaluations) {
    if (decided(a, q) !== 'win') continue
    const at = tallyOf(a.observation, q)
    for (const b of evaluations) {
      if (a === b || !coverLeq(a.cover, b.cover) || coverEquals(a.cover, b.cover)) continue
      if (decided(b, q) === 'loss')
        out.push({ question: q, narrower: a.cover, narrowerTally: at, wider: b.cover, widerTally: tallyOf(b.observation, q) })
    }
  }
  return out
}

/**
 * One search as a session: `next()` names the threat model to evaluate (null
 * when the search is done or the budget is spent), `submit()` hands its
 * observation back. The async and sync drivers below are thin loops over it;
 * the browser drives it the same way. With a sequential test, `runsWanted()`
 * says how many runs the next batch should have, `submit()` takes a batch,
 * and `next()` names the same threat model again until it is settled.
 */
export class FrontierSession {
  readonly evaluations: Evaluation[] = []
  readonly decided: Decider
  private readonly questions: Question[]
  private readonly knowledge: Map<Question, Knowledge>
  private readonly repeat: number
  private readonly test: SequentialTest | undefined
  /** Where each evaluated threat model is in `evaluations`. */
  private readonly at = new Map<string, number>()
  private spent = 0
  private qi = 0
  private steps: Generator<Cover, void, void> | null = null
  private pending: Cover | null = null
  private finished = false
  private cut = false

  constructor(
    private readonly lattice: SearchSpace,
    private readonly options: FrontierSearchOptions,
  ) {
    this.repeat = options.repeat ?? 1
    this.test = options.test
    this.decided = deciderFor(options.test)
    this.questions =
      options.questions !== undefined
        ? [...options.questions]
        : ['claim', ...(options.perTask ? Array.from({ length: options.taskCount }, (_, i) => i) : [])]
    this.knowledge = new Map(this.questions.map((q) => [q, new Knowledge()]))
    for (const e of options.known ?? []) this.learn(e)
    // A shard with no task to search (more shards than tasks) is done at once.
    if (this.questions.length === 0) this.finished = true
  }

  /** The question being searched now. */
  get question(): Question {
    return this.questions[Math.min(this.qi, this.questions.length - 1)]
  }

  /** Controller runs made so far, known evaluations included. */
  get runsSpent(): number {
    return this.spent
  }

  /** The next threat model to evaluate, or null: done (`complete`) or out of budget. */
  next(): Cover | null {
    if (this.pending !== null) {
      if (this.test === undefined || this.spent < (this.options.budgetRuns ?? Infinity)) return this.pending
      // Out of runs before the test settled it: the search stops here, incomplete.
      this.pending = null
      this.cut = true
      this.finished = true
      return null
    }
    while (!this.finished) {
      if (this.steps === null)
        this.steps = frontierSteps(this.lattice, this.knowledge.get(this.questions[this.qi])!, this.options.seed ?? 'low')
      const step = this.steps.next()
      if (!step.done) {
        const need = this.test === undefined ? (this.evaluations.length + 1) * this.repeat : this.spent + 1
        if (this.options.budgetRuns !== undefined && need > this.options.budgetRuns) {
          this.cut = true
          this.finished = true
          return null
        }
        this.pending = step.value
        return step.value
      }
      this.steps = null
      this.qi += 1
      if (this.qi >= this.questions.length) this.finished = true
    }
    return null
  }

  /** The evaluation so far of the threat model `next()` named (a test's earlier batches), or null. */
  current(): Evaluation | null {
    if (this.pending === null) return null
    const i = this.at.get(coverKey(this.pending))
    return i === undefined ? null : this.evaluations[i]
  }

  /**
   * How many runs the next batch of the pending threat model should have: `repeat` without a test; with one,
   * the fewest after which the test could decide the question searched (sequential.ts), within the repeats
   * and the budget left. A caller with less capacity runs fewer and submits them; the session asks again.
   */
  runsWanted(): number {
    if (this.test === undefined) return this.repeat
    const had = this.current()?.observation.runs.length ?? 0
    const limit = Math.min(this.test.maxRepeats - had, (this.options.budgetRuns ?? Infinity) - this.spent)
    const e = this.current()
    return runsBeforeADecision(e === null ? [] : outcomesOf(e.observation, this.question), this.test, Math.max(1, limit))
  }

  /** The runs of the pending threat model (with a test, one batch of them, added to its earlier ones). */
  submit(observation: Observation): Evaluation {
    if (this.pending === null) throw new Error('nothing was asked for')
    const cover = this.pending
    const key = coverKey(cover)
    const i = this.at.get(key)
    this.spent += observation.runs.length
    let e: Evaluation
    if (i === undefined) {
      e = { cover, observation }
      this.at.set(key, this.evaluations.length)
      this.evaluations.push(e)
    } else {
      e = { cover, observation: { runs: [...this.evaluations[i].observation.runs, ...observation.runs] } }
      this.evaluations[i] = e
    }
    this.record(e)
    if (this.test === undefined || this.settled(e, this.question)) this.pending = null
    this.options.onProgress?.({ question: this.question, evaluations: this.evaluations.length, last: e })
    return e
  }

  /** Counts for one question now (a scan of the lattice). */
  counts(q: Question = this.question): { evaluated: number; inferred: number; undecided: number } {
    return tally(this.lattice, this.knowledge.get(q)!)
  }

  /** The answer so far; `stopped` marks a search cut short from outside (a signal). */
  answer(stopped = false): FrontierAnswer {
    const of = (q: Question): QuestionFrontier => ({
      question: q,
      ...frontierOf(this.evaluations, q, this.decided),
      counts: this.options.counts ? this.counts(q) : null,
    })
    return {
      evaluations: this.evaluations,
      complete: this.finished && !this.cut && !stopped,
      // A shard that does not search the claim has no claim frontier of its own: the merge computes it from the tasks'.
      claim: this.questions.includes('claim')
        ? of('claim')
        : { question: 'claim', minimalWins: [], maximalLosses: [], undecided: [], counts: null },
      tasks: this.questions.filter((q): q is number => q !== 'claim').map(of),
      contradictions: this.questions.flatMap((q) => contradictionsOf(this.evaluations, q, this.decided)),
    }
  }

  /** Settled for a question: decided, or undecided after every repeat (without a test, always). */
  private settled(e: Evaluation, q: Question): boolean {
    return this.test === undefined || this.decided(e, q) !== 'undecided' || e.observation.runs.length >= this.test.maxRepeats
  }

  private learn(e: Evaluation): void {
    this.at.set(coverKey(e.cover), this.evaluations.length)
    this.evaluations.push(e)
    this.spent += e.observation.runs.length
    this.record(e)
  }

  /** What an evaluation settles goes to each question's knowledge; one still open for a question stays out of it, to be run further. */
  private record(e: Evaluation): void {
    for (const q of this.questions) {
      if (this.settled(e, q)) this.knowledge.get(q)!.record(e.cover, this.decided(e, q) as Settled)
    }
  }
}

/** Above this many threat models, counting what is decided is not a scan (AgentDojo with read-only grants has billions). */
export const SCAN_LIMIT = 5_000_000n

/**
 * Counts of a complete answer without a scan: when the frontiers account for
 * everything, whatever was not evaluated was decided by inference.
 */
export function completeCounts(answer: FrontierAnswer, total: bigint): FrontierAnswer {
  // An evaluation that ended undecided leaves part of the space undecided: only a scan could count it.
  if ([answer.claim, ...answer.tasks].some((f) => f.undecided.length > 0)) return answer
  const evaluated = new Set(answer.evaluations.map((e) => e.cover.join('.'))).size
  const counts = { evaluated, inferred: Number(total) - evaluated, undecided: 0 }
  return { ...answer, claim: { ...answer.claim, counts }, tasks: answer.tasks.map((t) => ({ ...t, counts })) }
}

export async function searchFrontier(lattice: SearchSpace, evaluate: Evaluate, options: FrontierSearchOptions): Promise<FrontierAnswer> {
  const session = new FrontierSession(lattice, options)
  for (let c = session.next(); c !== null; c = session.next()) {
    if (options.signal?.aborted) return session.answer(true)
    const observation = await evaluate(c, session.runsWanted())
    if (options.signal?.aborted) return session.answer(true)
    session.submit(observation)
  }
  return session.answer()
}

/** The same search with an oracle that answers at once: tests and benchmarks. */
export function searchFrontierSync(
  lattice: SearchSpace,
  evaluate: (cover: Cover, runs: number) => Observation,
  options: Omit<FrontierSearchOptions, 'signal'>,
): FrontierAnswer {
  const session = new FrontierSession(lattice, options)
  for (let c = session.next(); c !== null; c = session.next()) session.submit(evaluate(c, session.runsWanted()))
  return session.answer()
}
