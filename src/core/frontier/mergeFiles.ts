/**
 * The frontier.json of a sharded per-task search, merged: one answer from the
 * shards' files (src/core/frontier/merge.ts gives the claim's frontier from
 * the tasks'). Pure: `redscope merge` reads the files and writes the result.
 */
import { coverKey, coverLeq, GrantLattice, ThreatModelLattice, type Cover, type NamedModel, type SearchSpace } from '../lattice'
import { buildDomain } from '../tags'
import { FrontierMergeError } from './mergeError'
import { frontierFile, knownEvaluations, testOf, type FrontierFile } from './file'
import { Knowledge } from './knowledge'
import { claimFrontierOfTasks, mergedEvaluations } from './merge'
import {
  completeCounts,
  contradictionsOf,
  deciderFor,
  SCAN_LIMIT,
  type Decider,
  type Evaluation,
  type FrontierAnswer,
  type QuestionFrontier,
} from './run'
import { tally } from './search'
import type { SequentialTest } from './sequential'

export interface FrontierMerge {
  readonly file: FrontierFile
  /** Shards (0-based) of the search that no file holds. */
  readonly missingShards: number[]
  /** Shards that stopped before their tasks' frontiers were complete. */
  readonly incompleteShards: number[]
}

const SAME = [
  'target',
  'claim',
  'attacker',
  'claim_digest',
  'attacker_digest',
  'seed',
  'repeat',
  'per_task',
  'read_only',
  'confidence',
  'threshold',
  'max_repeats',
] as const

/**
 * The claim's frontier on a noisy target, from the tasks' and the runs. "Some task wins" still implies the claim
 * wins (its success rate is at least any task's), but every task losing does not imply the claim loses (two tasks
 * at 0.4 can make a claim at 0.64), so its losses come only from its own test on the runs every evaluation made
 * of the whole claim; what neither decides stays undecided.
 */
function testedClaimFrontier(
  space: SearchSpace,
  tasks: readonly QuestionFrontier[],
  evaluations: readonly Evaluation[],
  decided: Decider,
  test: SequentialTest,
) {
  const know = new Knowledge()
  for (const t of tasks) for (const w of t.minimalWins) know.record(w, 'win')
  const undecided: Cover[] = []
  for (const e of evaluations) {
    const d = decided(e, 'claim')
    if (d !== 'undecided') know.record(e.cover, d)
    else {
      undecided.push(e.cover)
      if (e.observation.runs.length >= test.maxRepeats) know.record(e.cover, 'undecided')
    }
  }
  const counts = space.total <= SCAN_LIMIT ? tally(space, know) : null
  return {
    minimalWins: [...know.wins()],
    maximalLosses: [...know.losses()],
    undecided: undecided.filter((c) => know.status(c) !== 'win' && know.status(c) !== 'loss'),
    counts,
  }
}

/** Every shard's evaluations, those of one threat model pooled into one (runs concatenated in shard order). */
function pooledEvaluations(lists: readonly (readonly Evaluation[])[]): Evaluation[] {
  const byKey = new Map<string, Evaluation>()
  for (const list of lists) {
    for (const e of list) {
      const had = byKey.get(coverKey(e.cover))
      byKey.set(
        coverKey(e.cover),
        had === undefined ? e : { cover: had.cover, observation: { runs: [...had.observation.runs, ...e.observation.runs] } },
      )
    }
  }
  return [...byKey.values()]
}

/** A question's minimal decided wins, maximal decided losses and undecided, among these evaluations. */
function tested(
  evaluations: readonly Evaluation[],
  q: number,
  decided: Decider,
): { minimalWins: Cover[]; maximalLosses: Cover[]; undecided: Cover[] } {
  const with_ = (d: string) => evaluations.filter((e) => decided(e, q) === d).map((e) => e.cover)
  const wins = with_('win')
  const losses = with_('loss')
  return {
    minimalWins: wins.filter((w) => !wins.some((o) => o !== w && coverLeq(o, w))),
    maximalLosses: losses.filter((l) => !losses.some((o) => o !== l && coverLeq(l, o))),
    undecided: with_('undecided'),
  }
}

export function mergeFrontierFiles(inputs: ReadonlyArray<{ label: string; file: FrontierFile }>): FrontierMerge {
  const first = inputs[0]
  for (const { label, file } of inputs) {
    if (file.shard === null)
      throw new FrontierMergeError(
        `${label}: not a shard of a frontier search (no "shard" in its frontier.json): run each worker with --per-task --shard I/N`,
      )
    if (file.forest === null)
      throw new FrontierMergeError(`${label}: its frontier.json names no forest (written by an older redscope): rerun that shard`)
    for (const k of SAME) {
      if (file.search[k] !== first.file.search[k]) {
        throw new FrontierMergeError(
          `${first.label} and ${label} are different searches: search.${k} is ${JSON.stringify(first.file.search[k])} and ${JSON.stringify(file.search[k])}`,
        )
      }
    }
    if (file.shard.count !== first.file.shard!.count)
      throw new FrontierMergeError(
        `${first.label} and ${label} split the tasks differently: ${first.file.shard!.count} and ${file.shard.count} shards`,
      )
    if (JSON.stringify(file.forest) !== JSON.stringify(first.file.forest))
      throw new FrontierMergeError(`${first.label} and ${label} searched different forests`)
  }
  const byShard = new Map<number, { label: string; file: FrontierFile }>()
  for (const input of inputs) {
    const other = byShard.get(input.file.shard!.index)
    if (other !== undefined && JSON.stringify(other.file.evaluations) !== JSON.stringify(input.file.evaluations)) {
      throw new FrontierMergeError(
        `${other.label} and ${input.label} are both shard ${input.file.shard!.index}/${input.file.shard!.count} and differ: merge one of them`,
      )
    }
    byShard.set(input.file.shard!.index, input)
  }
  const count = first.file.shard!.count
  const missingShards = Array.from({ length: count }, (_, i) => i).filter((i) => !byShard.has(i))
  const shards = [...byShard.values()].map((s) => s.file)
  const incompleteShards = shards.filter((f) => !f.complete).map((f) => f.shard!.index)

  const base = new ThreatModelLattice(buildDomain(first.file.forest!))
  const space: SearchSpace = first.file.search.read_only ? new GrantLattice(base) : base
  const cover = (m: { scope: string[]; read_only: string[] }) => space.coverOfModel({ scope: m.scope, readOnly: m.read_only })
  const test = testOf(first.file.search)
  const decided = deciderFor(test)
  // Shards in their order: without a test a threat model two shards evaluated is merged once (the first copy, as
  // the runs agree on a deterministic target); with one, their runs are different draws, so they are pooled, in
  // shard order, into one longer evaluation (a confidence sequence holds for any order fixed in advance).
  const ordered = [...shards].sort((a, b) => a.shard!.index - b.shard!.index)
  const runs = new Map<string, string[]>()
  for (const f of ordered) {
    for (const e of f.evaluations) {
      const key = coverKey(cover(e))
      const had = runs.get(key)
      if (had === undefined) runs.set(key, e.runs)
      else if (test !== undefined) runs.set(key, [...had, ...e.runs])
    }
  }
  const runsOf = (m: NamedModel) => runs.get(coverKey(space.coverOfModel(m))) ?? []

  const lists = ordered.map((f) => knownEvaluations(space, f))
  const evaluations = test === undefined ? mergedEvaluations(lists).evaluations : pooledEvaluations(lists)
  const goals: string[] = []
  const tasks: QuestionFrontier[] = []
  for (const f of shards) {
    for (const t of f.tasks) {
      goals[t.index - 1] = t.goal
      // With a test, a task's frontier is recomputed on the pooled runs (another shard's runs may decide more).
      const pooled = test === undefined ? null : tested(evaluations, t.index - 1, decided)
      tasks.push({
        question: t.index - 1,
        minimalWins: pooled?.minimalWins ?? t.minimal_wins.map(cover),
        maximalLosses: pooled?.maximalLosses ?? t.maximal_losses.map(cover),
        undecided: pooled?.undecided ?? (t.undecided_evaluated ?? []).map(cover),
        counts: null,
      })
    }
  }
  tasks.sort((a, b) => (a.question as number) - (b.question as number))
  const complete = missingShards.length === 0 && incompleteShards.length === 0
  const none = { minimalWins: [], maximalLosses: [], undecided: [], counts: null }
  // The claim's frontier only follows from every task's complete frontier.
  const claim: Omit<QuestionFrontier, 'question'> = !complete
    ? none
    : test === undefined
      ? { ...claimFrontierOfTasks(tasks), undecided: [], counts: null }
      : testedClaimFrontier(space, tasks, evaluations, decided, test)
  const questions = ['claim' as const, ...tasks.map((t) => t.question)]
  let answer: FrontierAnswer = {
    evaluations,
    complete,
    claim: { question: 'claim', ...claim },
    tasks,
    contradictions: questions.flatMap((q) => contradictionsOf(evaluations, q, decided)),
  }
  if (complete && test === undefined) answer = completeCounts(answer, space.total)
  const search = { ...first.file.search, budget_runs: null }
  return { file: frontierFile(space, answer, search, goals, runsOf, null, count), missingShards, incompleteShards }
}
