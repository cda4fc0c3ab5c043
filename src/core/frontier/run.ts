/**
 * The frontier for a claim, and optionally for each of its tasks, over one
 * attacker's evaluations. The claim's search runs first; each task's search
 * then starts from every evaluation made so far (one evaluation gives a
 * verdict for every task), so per-task frontiers cost little more.
 *
 * `known` evaluations (a resumed run's) are knowledge from the start and are
 * never asked for again. A budget in Controller runs stops the search with
 * what is decided; the answer then says it is incomplete.
 */
import { coverEquals, coverLeq, type Cover, type SearchSpace } from '../lattice'
import { Knowledge, type Verdict } from './knowledge'
import { tallyOf, verdictOf, type Observation, type Question, type Tally } from './observation'
import { frontierSteps, tally, type Seed } from './search'

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
  /** At most this many Controller runs in all (known evaluations included): evaluations × repeat. */
  readonly budgetRuns?: number
  readonly known?: readonly Evaluation[]
  readonly signal?: AbortSignal
  /** Count evaluated / inferred / undecided per question in the answer (a scan of the lattice per question). */
  readonly counts?: boolean
  readonly onProgress?: (p: FrontierProgress) => void
}

export type Evaluate = (cover: Cover) => Promise<Observation> | Observation

const verdictFor = (e: Evaluation, q: Question): Verdict => verdictOf(tallyOf(e.observation, q))

/** The minimal wins and maximal losses among evaluated threat models (majority verdicts). */
function frontierOf(evaluations: readonly Evaluation[], q: Question): { minimalWins: Cover[]; maximalLosses: Cover[] } {
  const wins = evaluations.filter((e) => verdictFor(e, q) === 'win').map((e) => e.cover)
  const losses = evaluations.filter((e) => verdictFor(e, q) === 'loss').map((e) => e.cover)
  return {
    minimalWins: wins.filter((w) => !wins.some((o) => o !== w && coverLeq(o, w) && !coverEquals(o, w))),
    maximalLosses: losses.filter((l) => !losses.some((o) => o !== l && coverLeq(l, o) && !coverEquals(o, l))),
  }
}

/** Every evaluated pair where a strictly wider threat model lost and a narrower one won: findings, never smoothed away. */
export function contradictionsOf(evaluations: readonly Evaluation[], q: Question): Contradiction[] {
  const out: Contradiction[] = []
  for (const a of evaluations) {
    const at = tallyOf(a.observation, q)
    if (verdictOf(at) !== 'win') continue
    for (const b of evaluations) {
      if (a === b || !coverLeq(a.cover, b.cover) || coverEquals(a.cover, b.cover)) continue
      const bt = tallyOf(b.observation, q)
      if (verdictOf(bt) === 'loss') out.push({ question: q, narrower: a.cover, narrowerTally: at, wider: b.cover, widerTally: bt })
    }
  }
  return out
}

/**
 * One search as a session: `next()` names the threat model to evaluate (null
 * when the search is done or the budget is spent), `submit()` hands its
 * observation back. The async and sync drivers below are thin loops over it;
 * the browser drives it the same way.
 */
export class FrontierSession {
  readonly evaluations: Evaluation[] = []
  private readonly questions: Question[]
  private readonly knowledge: Map<Question, Knowledge>
  private readonly repeat: number
  private qi = 0
  private steps: Generator<Cover, void, void> | null = null
  private pending: Cover | null = null
  private finished = false
  private cut = false

  constructor(private readonly lattice: SearchSpace, private readonly options: FrontierSearchOptions) {
    this.repeat = options.repeat ?? 1
    this.questions = options.questions !== undefined ? [...options.questions]
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

  /** The next threat model to evaluate, or null: done (`complete`) or out of budget. */
  next(): Cover | null {
    if (this.pending !== null) return this.pending
    while (!this.finished) {
      if (this.steps === null) this.steps = frontierSteps(this.lattice, this.knowledge.get(this.questions[this.qi])!, this.options.seed ?? 'low')
      const step = this.steps.next()
      if (!step.done) {
        if (this.options.budgetRuns !== undefined && (this.evaluations.length + 1) * this.repeat > this.options.budgetRuns) {
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

  submit(observation: Observation): Evaluation {
    if (this.pending === null) throw new Error('nothing was asked for')
    const e = { cover: this.pending, observation }
    this.pending = null
    this.learn(e)
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
      question: q, ...frontierOf(this.evaluations, q), counts: this.options.counts ? this.counts(q) : null,
    })
    return {
      evaluations: this.evaluations,
      complete: this.finished && !this.cut && !stopped,
      // A shard that does not search the claim has no claim frontier of its own: the merge computes it from the tasks'.
      claim: this.questions.includes('claim') ? of('claim') : { question: 'claim', minimalWins: [], maximalLosses: [], counts: null },
      tasks: this.questions.filter((q): q is number => q !== 'claim').map(of),
      contradictions: this.questions.flatMap((q) => contradictionsOf(this.evaluations, q)),
    }
  }

  private learn(e: Evaluation): void {
    this.evaluations.push(e)
    for (const q of this.questions) this.knowledge.get(q)!.record(e.cover, verdictFor(e, q))
  }
}

/** Above this many threat models, counting what is decided is not a scan (AgentDojo with read-only grants has billions). */
export const SCAN_LIMIT = 5_000_000n

/**
 * Counts of a complete answer without a scan: when the frontiers account for
 * everything, whatever was not evaluated was decided by inference.
 */
export function completeCounts(answer: FrontierAnswer, total: bigint): FrontierAnswer {
  const evaluated = new Set(answer.evaluations.map((e) => e.cover.join('.'))).size
  const counts = { evaluated, inferred: Number(total) - evaluated, undecided: 0 }
  return { ...answer, claim: { ...answer.claim, counts }, tasks: answer.tasks.map((t) => ({ ...t, counts })) }
}

export async function searchFrontier(lattice: SearchSpace, evaluate: Evaluate, options: FrontierSearchOptions): Promise<FrontierAnswer> {
  const session = new FrontierSession(lattice, options)
  for (let c = session.next(); c !== null; c = session.next()) {
    if (options.signal?.aborted) return session.answer(true)
    const observation = await evaluate(c)
    if (options.signal?.aborted) return session.answer(true)
    session.submit(observation)
  }
  return session.answer()
}

/** The same search with an oracle that answers at once: tests and benchmarks. */
export function searchFrontierSync(lattice: SearchSpace, evaluate: (cover: Cover) => Observation,
  options: Omit<FrontierSearchOptions, 'signal'>): FrontierAnswer {
  const session = new FrontierSession(lattice, options)
  for (let c = session.next(); c !== null; c = session.next()) session.submit(evaluate(c))
  return session.answer()
}
