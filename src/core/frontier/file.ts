/**
 * DIR/frontier.json: the answer of a frontier search, written after every
 * evaluation so that a stopped search resumes from it (its evaluations are
 * the next run's knowledge). The fields the issue names come first; the rest
 * are documented in docs/frontier.md.
 */
import { z } from 'zod'
import { ForestSchema } from '../tags'
import { describeModel, type Cover, type NamedModel, type SearchSpace } from '../lattice'
import type { FrontierAnswer, Evaluation, QuestionFrontier } from './run'
import { tallyOf, wilson, type Question } from './observation'
import type { Seed } from './search'

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
const TallyJson = z.object({ wins: z.number().int(), runs: z.number().int(), rate_low: z.number(), rate_high: z.number() })
const QuestionJson = z.object({
  minimal_wins: z.array(ThreatModelJson),
  maximal_losses: z.array(ThreatModelJson),
  decided_by_inference: z.number().int().nullable(),
  undecided: z.number().int().nullable(),
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
})

export const FrontierFileSchema = z.object({
  threat_models_total: z.number().int(),
  evaluated: z.number().int(),
  claim: QuestionJson,
  tasks: z.array(QuestionJson.extend({ index: z.number().int(), goal: z.string() })),
  contradictions: z.array(z.object({
    task: z.number().int().nullable(),
    narrower: ThreatModelJson, wider: ThreatModelJson, narrower_tally: TallyJson, wider_tally: TallyJson,
  })),
  v: z.literal(1),
  complete: z.boolean(),
  search: z.object({
    target: z.string(), claim: z.string(), attacker: z.string(), claim_digest: z.string(), attacker_digest: z.string(),
    seed: z.enum(['low', 'high']), repeat: z.number().int(), per_task: z.boolean(), budget_runs: z.number().int().nullable(),
    /** The space searched: read-only grants included (--read-only) or scope only. Absent in older files: scope only. */
    read_only: z.boolean().default(false),
  }),
  /**
   * A shard of a per-task search (--shard I/N): which tasks (1-based) it searched. Its `claim` is empty: the claim's
   * frontier comes from every task's, at `redscope merge`. A merged file has `shard: null` and `merged_from` shards.
   */
  shard: z.object({ index: z.number().int(), count: z.number().int(), tasks: z.array(z.number().int()) }).nullable().default(null),
  merged_from: z.number().int().nullable().default(null),
  /** The target's forest, so that `redscope merge` can order the shards' threat models (absent in older files). */
  forest: ForestSchema.nullable().default(null),
  assumption: z.string(),
  bound: z.object({ height: z.number().int(), evaluations_at_most: z.number().int() }),
  evaluations: z.array(EvaluationJson),
})
export type FrontierFile = z.infer<typeof FrontierFileSchema>
export type FrontierSearchJson = z.input<typeof FrontierFileSchema>['search']

export const ASSUMPTION = 'monotone: a threat model above a win wins, one below a loss loses; threat models decided that way ' +
  'were not run. Verdicts are the majority of --repeat runs, a tie counting as a win; contradictions seen between ' +
  'evaluations are listed, not smoothed away.'

const tallyJson = (e: Evaluation, q: Question) => {
  const t = tallyOf(e.observation, q)
  const w = wilson(t)
  return { wins: t.wins, runs: t.runs, rate_low: round(w.low), rate_high: round(w.high) }
}
const round = (x: number) => Math.round(x * 1e4) / 1e4

/** The experiment folders of each evaluated threat model. */
export type RunsOf = (model: NamedModel) => string[]

export function frontierFile(lattice: SearchSpace, answer: FrontierAnswer, search: FrontierSearchJson,
  goals: readonly string[], runsOf: RunsOf, shard: FrontierFile['shard'] = null, mergedFrom: number | null = null): FrontierFile {
  const model = (c: Cover) => {
    const m = lattice.modelOf(c)
    return { scope: [...m.scope], read_only: [...m.readOnly], index: lattice.label(c), words: describeModel(m), runs: runsOf(m) }
  }
  const question = (f: QuestionFrontier) => ({
    minimal_wins: f.minimalWins.map(model),
    maximal_losses: f.maximalLosses.map(model),
    decided_by_inference: f.counts?.inferred ?? null,
    undecided: f.counts?.undecided ?? null,
  })
  const byKey = new Map(answer.evaluations.map((e) => [e.cover.join('.'), e]))
  const frontierSize = answer.claim.minimalWins.length + answer.claim.maximalLosses.length +
    answer.tasks.reduce((n, t) => n + t.minimalWins.length + t.maximalLosses.length, 0)
  return {
    threat_models_total: Number(lattice.total),
    evaluated: answer.evaluations.length,
    claim: question(answer.claim),
    tasks: answer.tasks.map((t) => ({ index: (t.question as number) + 1, goal: goals[t.question as number] ?? '', ...question(t) })),
    contradictions: answer.contradictions.map((c) => ({
      task: c.question === 'claim' ? null : c.question + 1,
      narrower: model(c.narrower), wider: model(c.wider),
      narrower_tally: tallyJson(byKey.get(c.narrower.join('.'))!, c.question),
      wider_tally: tallyJson(byKey.get(c.wider.join('.'))!, c.question),
    })),
    v: 1,
    complete: answer.complete,
    search: { ...search, read_only: search.read_only ?? false },
    shard,
    merged_from: mergedFrom,
    forest: lattice.forest(),
    assumption: ASSUMPTION,
    bound: { height: lattice.height, evaluations_at_most: frontierSize * (lattice.height + 1) },
    evaluations: answer.evaluations.map((e) => {
      const m = lattice.modelOf(e.cover)
      return {
        scope: [...m.scope], read_only: [...m.readOnly], index: lattice.label(e.cover), runs: runsOf(m),
        outcomes: e.observation.runs.map((r) => [...r]), claim: tallyJson(e, 'claim'),
      }
    }),
  }
}

/** A saved search's evaluations as knowledge for the next run; names the forest lacks (or read-only grants in a scope-only space) are refused. */
export function knownEvaluations(lattice: SearchSpace, file: FrontierFile): Evaluation[] {
  return file.evaluations.map((e) => ({ cover: lattice.coverOfModel({ scope: e.scope, readOnly: e.read_only }), observation: { runs: e.outcomes } }))
}

export type { Seed }
