/**
 * DIR/frontier.json: the answer of a frontier search, written after every
 * evaluation so that a stopped search resumes from it (its evaluations are
 * the next run's knowledge). The fields the issue names come first; the rest
 * are documented in docs/frontier.md.
 */
import { z } from 'zod'
import { ForestSchema } from '../tags'
import { describeModel, type Cover, type NamedModel, type SearchSpace } from '../lattice'
import { deciderFor, type Decider, type FrontierAnswer, type Evaluation, type QuestionFrontier } from './run'
import { outcomesOf, tallyOf, wilson, type Question } from './observation'
import type { Seed } from './search'
import { sequenceInterval, type SequentialTest } from './sequential'

export const FRONTIER_FILE = 'frontier.json'

const ThreatModelJson = z.object({
  scope: z.array(z.string()),
  read_only: z.array(z.string()),
  /** Its number in superred's distinct_combinations() order (the designer's #N); with read-only grants "S/R", the scope's and the read_only's numbers. */
  index: z.string(),
  words: z.string(),
  /** The results trees (experiment folders, relative to DIR) whose runs decided it. */
  runs: z.array(z.string()),
})
const DecisionJson = z.enum(['win', 'lose', 'undecided'])
const TallyJson = z.object({
  wins: z.number().int(),
  runs: z.number().int(),
  rate_low: z.number(),
  rate_high: z.number(),
  /** With a sequential test (--confidence) only: the confidence sequence's interval after these runs, and what it decided. */
  interval: z.tuple([z.number(), z.number()]).optional(),
  decision: DecisionJson.optional(),
})
/** With a sequential test: a threat model of a frontier or of the undecided, with its test for that question. */
const TestedModelJson = ThreatModelJson.extend({ tally: TallyJson.optional() })
const QuestionJson = z.object({
  minimal_wins: z.array(TestedModelJson),
  maximal_losses: z.array(TestedModelJson),
  decided_by_inference: z.number().int().nullable(),
  undecided: z.number().int().nullable(),
  /** With a sequential test: the evaluated threat models whose test ended undecided, with the runs that left them so. */
  undecided_evaluated: z.array(TestedModelJson).optional(),
})
const EvaluationJson = z.object({
  scope: z.array(z.string()),
  /** Absent in files written before read-only searches: none. */
  read_only: z.array(z.string()).default([]),
  index: z.string(),
  runs: z.array(z.string()),
  /** Per run, per task: did the task end in success. */
  outcomes: z.array(z.array(z.boolean())),
  claim: TallyJson,
  /** With a sequential test and task questions (--per-task, a shard): each task's test on the same runs. */
  tasks: z.array(TallyJson.extend({ index: z.number().int() })).optional(),
})

export const FrontierFileSchema = z.object({
  threat_models_total: z.number().int(),
  evaluated: z.number().int(),
  claim: QuestionJson,
  tasks: z.array(QuestionJson.extend({ index: z.number().int(), goal: z.string() })),
  contradictions: z.array(
    z.object({
      task: z.number().int().nullable(),
      narrower: ThreatModelJson,
      wider: ThreatModelJson,
      narrower_tally: TallyJson,
      wider_tally: TallyJson,
    }),
  ),
  v: z.literal(1),
  complete: z.boolean(),
  search: z.object({
    target: z.string(),
    claim: z.string(),
    attacker: z.string(),
    claim_digest: z.string(),
    attacker_digest: z.string(),
    seed: z.enum(['low', 'high']),
    repeat: z.number().int(),
    per_task: z.boolean(),
    budget_runs: z.number().int().nullable(),
    /** The space searched: read-only grants included (--read-only) or scope only. Absent in older files: scope only. */
    read_only: z.boolean().default(false),
    /** The sequential test (--confidence, --threshold, --max-repeats); absent without one. `repeat` is then max_repeats. */
    confidence: z.number().optional(),
    threshold: z.number().optional(),
    max_repeats: z.number().int().optional(),
  }),
  /**
   * With a sequential test: what the answer guarantees. Each decision (a threat model and a question) is wrong
   * with probability at most `per_decision_error_at_most`; all `decisions` are right together with probability
   * at least `all_right_at_least` (a union bound); `runs` is what the search spent.
   */
  guarantee: z
    .object({
      confidence: z.number(),
      per_decision_error_at_most: z.number(),
      decisions: z.number().int(),
      all_right_at_least: z.number(),
      runs: z.number().int(),
    })
    .optional(),
  /**
   * A shard of a per-task search (--shard I/N): which tasks (1-based) it searched. Its `claim` is empty: the claim's
   * frontier comes from every task's, at `redscope merge`. A merged file has `shard: null` and `merged_from` shards.
   */
  shard: z
    .object({ index: z.number().int(), count: z.number().int(), tasks: z.array(z.number().int()) })
    .nullable()
    .default(null),
  merged_from: z.number().int().nullable().default(null),
  /** The target's forest, so that `redscope merge` can order the shards' threat models (absent in older files). */
  forest: ForestSchema.nullable().default(null),
  assumption: z.string(),
  bound: z.object({ height: z.number().int(), evaluations_at_most: z.number().int() }),
  evaluations: z.array(EvaluationJson),
})
export type FrontierFile = z.infer<typeof FrontierFileSchema>
export type FrontierSearchJson = z.input<typeof FrontierFileSchema>['search']

export const ASSUMPTION =
  'monotone: a threat model above a win wins, one below a loss loses; threat models decided that way ' +
  'were not run. Verdicts are the majority of --repeat runs, a tie counting as a win; contradictions seen between ' +
  'evaluations are listed, not smoothed away.'

/** The assumption with a sequential test (the wording of ASSUMPTION is kept exactly for searches without one). */
export const TESTED_ASSUMPTION =
  'monotone: the success rate of a wider threat model is at least that of a narrower one, so a ' +
  'threat model above a win wins and one below a loss loses; threat models decided that way were not run. Each evaluated ' +
  'threat model was run until its confidence sequence decided it against the threshold or max_repeats runs were made; ' +
  'undecided ones infer nothing; contradictions seen between evaluations are listed, not smoothed away.'

const round = (x: number) => Math.round(x * 1e4) / 1e4

/** The test a saved search ran, or undefined without one. */
export function testOf(search: { confidence?: number; threshold?: number; max_repeats?: number }): SequentialTest | undefined {
  return search.confidence === undefined
    ? undefined
    : { confidence: search.confidence, threshold: search.threshold ?? 0.5, maxRepeats: search.max_repeats ?? 1 }
}

function tallyJsonOf(e: Evaluation, q: Question, test: SequentialTest | undefined, decided: Decider) {
  const t = tallyOf(e.observation, q)
  const w = wilson(t)
  const plain = { wins: t.wins, runs: t.runs, rate_low: round(w.low), rate_high: round(w.high) }
  if (test === undefined) return plain
  const i = sequenceInterval(outcomesOf(e.observation, q), test.confidence)
  const d = decided(e, q)
  // Rounded outwards, so the written interval never claims more than the sequence did.
  return {
    ...plain,
    interval: [Math.floor(i.low * 1e4) / 1e4, Math.ceil(i.high * 1e4) / 1e4] as [number, number],
    decision: d === 'loss' ? ('lose' as const) : d,
  }
}

/** The experiment folders of each evaluated threat model: the first `runs` of its repeats. */
export type RunsOf = (model: NamedModel, runs: number) => string[]

export function frontierFile(
  lattice: SearchSpace,
  answer: FrontierAnswer,
  search: FrontierSearchJson,
  goals: readonly string[],
  runsOf: RunsOf,
  shard: FrontierFile['shard'] = null,
  mergedFrom: number | null = null,
): FrontierFile {
  const test = testOf(search)
  const decided = deciderFor(test)
  const byKey = new Map(answer.evaluations.map((e) => [e.cover.join('.'), e]))
  const runsCount = (c: Cover) => byKey.get(c.join('.'))?.observation.runs.length ?? search.repeat
  const tallyJson = (e: Evaluation, q: Question) => tallyJsonOf(e, q, test, decided)
  const model = (c: Cover) => {
    const m = lattice.modelOf(c)
    return {
      scope: [...m.scope],
      read_only: [...m.readOnly],
      index: lattice.label(c),
      words: describeModel(m),
      runs: runsOf(m, runsCount(c)),
    }
  }
  // With a test, each point says what its own runs decided for the question (a merged claim's point may have none).
  const tested = (q: Question) => (c: Cover) => {
    const e = byKey.get(c.join('.'))
    return test === undefined || e === undefined ? model(c) : { ...model(c), tally: tallyJson(e, q) }
  }
  const question = (f: QuestionFrontier) => ({
    minimal_wins: f.minimalWins.map(tested(f.question)),
    maximal_losses: f.maximalLosses.map(tested(f.question)),
    decided_by_inference: f.counts?.inferred ?? null,
    undecided: f.counts?.undecided ?? null,
    ...(test === undefined ? {} : { undecided_evaluated: f.undecided.map(tested(f.question)) }),
  })
  const undecidedCount = test === undefined ? 0 : answer.claim.undecided.length + answer.tasks.reduce((n, t) => n + t.undecided.length, 0)
  const frontierSize =
    answer.claim.minimalWins.length +
    answer.claim.maximalLosses.length +
    answer.tasks.reduce((n, t) => n + t.minimalWins.length + t.maximalLosses.length, 0) +
    undecidedCount
  const taskQuestions = answer.tasks.map((t) => t.question as number)
  // The questions answered: a shard's tasks (its claim is the merge's), else the claim and any task.
  const answered: Question[] = shard === null ? ['claim', ...taskQuestions] : taskQuestions
  const decisions =
    test === undefined ? 0 : answer.evaluations.reduce((n, e) => n + answered.filter((q) => decided(e, q) !== 'undecided').length, 0)
  const runs = answer.evaluations.reduce((n, e) => n + e.observation.runs.length, 0)
  return {
    threat_models_total: Number(lattice.total),
    evaluated: answer.evaluations.length,
    claim: question(answer.claim),
    tasks: answer.tasks.map((t) => ({ index: (t.question as number) + 1, goal: goals[t.question as number] ?? '', ...question(t) })),
    contradictions: answer.contradictions.map((c) => ({
      task: c.question === 'claim' ? null : c.question + 1,
      narrower: model(c.narrower),
      wider: model(c.wider),
      narrower_tally: tallyJson(byKey.get(c.narrower.join('.'))!, c.question),
      wider_tally: tallyJson(byKey.get(c.wider.join('.'))!, c.question),
    })),
    v: 1,
    complete: answer.complete,
    search: { ...search, read_only: search.read_only ?? false },
    ...(test === undefined
      ? {}
      : {
          guarantee: {
            confidence: test.confidence,
            per_decision_error_at_most: round(1 - test.confidence),
            decisions,
            all_right_at_least: round(Math.max(0, 1 - decisions * (1 - test.confidence))),
            runs,
          },
        }),
    shard,
    merged_from: mergedFrom,
    forest: lattice.forest(),
    assumption: test === undefined ? ASSUMPTION : TESTED_ASSUMPTION,
    bound: { height: lattice.height, evaluations_at_most: frontierSize * (lattice.height + 1) },
    evaluations: answer.evaluations.map((e) => {
      const m = lattice.modelOf(e.cover)
      return {
        scope: [...m.scope],
        read_only: [...m.readOnly],
        index: lattice.label(e.cover),
        runs: runsOf(m, e.observation.runs.length),
        outcomes: e.observation.runs.map((r) => [...r]),
        claim: tallyJson(e, 'claim'),
        ...(test === undefined || taskQuestions.length === 0
          ? {}
          : { tasks: taskQuestions.map((q) => ({ index: q + 1, ...tallyJson(e, q) })) }),
      }
    }),
  }
}

/** A saved search's evaluations as knowledge for the next run; names the forest lacks (or read-only grants in a scope-only space) are refused. */
export function knownEvaluations(lattice: SearchSpace, file: FrontierFile): Evaluation[] {
  return file.evaluations.map((e) => ({
    cover: lattice.coverOfModel({ scope: e.scope, readOnly: e.read_only }),
    observation: { runs: e.outcomes },
  }))
}

export type { Seed }
