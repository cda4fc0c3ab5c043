/**
 * Frontier searches sharded by task (`redscope frontier --per-task --shard
 * I/N`: shard I searches tasks i with i mod N = I) merged into one answer.
 *
 * The claim's frontier follows from complete per-task frontiers, without
 * another evaluation. The claim wins x iff some task wins x, so its wins are
 * the union of the tasks' up-sets and its minimal wins are the minimal
 * elements of the union of the tasks' minimal wins. It loses x iff every task
 * loses x, i.e. x lies below some maximal loss of every task: the
 * intersection of the tasks' down-sets, which is the union, over one maximal
 * loss per task, of the down-set of their meet (in a lattice down(a) ∩
 * down(b) = down(a ∧ b); here the meet is the bitwise AND, since the
 * intersection of two down-sets is a down-set). Its maximal losses are the
 * maximal non-empty such meets (the empty threat model is not one). A task
 * with no maximal loss loses nowhere, and then neither does the claim.
 */
import { coverEquals, coverKey, coverLeq, type Cover } from '../lattice'
import { contradictionsOf, type Contradiction, type Evaluation } from './run'

export interface Frontiers {
  readonly minimalWins: readonly Cover[]
  readonly maximalLosses: readonly Cover[]
}

const minimal = (xs: readonly Cover[]) => dedupe(xs).filter((a) => !xs.some((b) => coverLeq(b, a) && !coverEquals(a, b)))
const maximal = (xs: readonly Cover[]) => dedupe(xs).filter((a) => !xs.some((b) => coverLeq(a, b) && !coverEquals(a, b)))

function dedupe(xs: readonly Cover[]): Cover[] {
  const seen = new Map<string, Cover>()
  for (const x of xs) if (!seen.has(coverKey(x))) seen.set(coverKey(x), x)
  return [...seen.values()]
}

function meet(a: Cover, b: Cover): Cover {
  const out = a.slice()
  for (let i = 0; i < out.length; i++) out[i] &= b[i]
  return out
}

const isEmpty = (c: Cover) => c.every((w) => w === 0)

/** The claim's frontiers from every task's complete frontiers (any task wins: the claim wins). */
export function claimFrontierOfTasks(tasks: readonly Frontiers[]): { minimalWins: Cover[]; maximalLosses: Cover[] } {
  const minimalWins = minimal(tasks.flatMap((t) => t.minimalWins))
  if (tasks.length === 0) return { minimalWins, maximalLosses: [] }
  // Meets one task at a time, pruned to the maximal ones at each step (a dominated meet only yields dominated meets).
  let losses: Cover[] = maximal(tasks[0].maximalLosses.filter((l) => !isEmpty(l)))
  for (const t of tasks.slice(1)) {
    const next: Cover[] = []
    for (const a of losses)
      for (const b of t.maximalLosses) {
        const m = meet(a, b)
        if (!isEmpty(m)) next.push(m)
      }
    losses = maximal(next)
  }
  return { minimalWins, maximalLosses: losses }
}

/** Every shard's evaluations once (the first copy of a threat model kept), and the claim's contradictions among them. */
export function mergedEvaluations(lists: readonly (readonly Evaluation[])[]): {
  evaluations: Evaluation[]
  contradictions: Contradiction[]
} {
  const byKey = new Map<string, Evaluation>()
  for (const list of lists) for (const e of list) if (!byKey.has(coverKey(e.cover))) byKey.set(coverKey(e.cover), e)
  const evaluations = [...byKey.values()]
  return { evaluations, contradictions: contradictionsOf(evaluations, 'claim') }
}

/** The task indices (0-based) shard `index` of `count` searches: i mod count = index. */
export function shardTasks(taskCount: number, index: number, count: number): number[] {
  return Array.from({ length: taskCount }, (_, i) => i).filter((i) => i % count === index)
}
