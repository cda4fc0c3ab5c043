/**
 * Two results compared: per threat model and task, what changed between BASE
 * and HEAD (a task that held and now breaks is a regression), each threat
 * model's ASR on both sides with both intervals and the interval of the
 * change, and, where both sides searched a frontier, the minimal winning
 * threat models that are new in HEAD (a weaker attacker now wins) or gone.
 */
import { differenceInterval, rateWords, type Interval } from '../stats'
import { CompareInputError, claimsOf, type FrontierModel, type Side, type TaskOutcome, type ThreatModelResult } from './side'

export type TaskChangeKind = 'regression' | 'fix' | 'unchanged' | 'only_base' | 'only_head' | 'unmeasured'

export interface TaskChange {
  readonly key: string
  readonly goal: string
  readonly change: TaskChangeKind
  readonly base: TaskOutcome | null
  readonly head: TaskOutcome | null
}

export interface AsrSide {
  readonly successes: number
  readonly trials: number
  readonly interval: Interval | null
  readonly words: string
}

export interface ModelChange {
  readonly key: string
  /** How a person reads this threat model: its saved name, or its grants; and the attacker. */
  readonly label: string
  readonly target: string
  readonly claim: string
  readonly attacker: string
  readonly scope: readonly string[]
  readonly readOnly: readonly string[]
  readonly presence: 'both' | 'only_base' | 'only_head'
  readonly baseDir: string | null
  readonly headDir: string | null
  readonly baseAsr: AsrSide | null
  readonly headAsr: AsrSide | null
  /** HEAD's rate minus BASE's, with its 95% interval (Newcombe): a change is shown, not just claimed, when it excludes 0. */
  readonly asrChange: { readonly difference: number; readonly interval: Interval; readonly shown: boolean } | null
  readonly tasks: readonly TaskChange[]
}

export interface FrontierChange {
  /** The claim's (question 'claim') or one task's (its key). */
  readonly question: string
  readonly newInHead: readonly FrontierModel[]
  readonly goneFromHead: readonly FrontierModel[]
}

export interface Counts {
  readonly regressions: number
  readonly fixes: number
  readonly unchanged: number
  readonly onlyBase: number
  readonly onlyHead: number
  readonly unmeasured: number
  readonly breachedInHead: number
}

export interface Comparison {
  readonly base: string
  readonly head: string
  readonly models: readonly ModelChange[]
  readonly frontier: readonly FrontierChange[] | null
  readonly counts: Counts
}

export function grantsText(scope: readonly string[], readOnly: readonly string[]): string {
  const writes = scope.length === 0 ? '(none)' : scope.join(', ')
  return readOnly.length === 0 ? writes : `${writes}; read-only ${readOnly.join(', ')}`
}

function asrOf(m: ThreatModelResult): AsrSide {
  const w = rateWords(m.nSuccess, m.nCompleted, { unit: 'task', attacker: m.attacker })
  return { successes: m.nSuccess, trials: m.nCompleted, interval: w.interval, words: w.text }
}

function taskChange(base: TaskOutcome | null, head: TaskOutcome | null): TaskChangeKind {
  if (base === null) return 'only_head'
  if (head === null) return 'only_base'
  if (base.outcome === 'unmeasured' || head.outcome === 'unmeasured') return 'unmeasured'
  if (base.outcome === head.outcome) return 'unchanged'
  return head.outcome === 'breached' ? 'regression' : 'fix'
}

function tasksOf(base: ThreatModelResult | undefined, head: ThreatModelResult | undefined): TaskChange[] {
  const byKey = new Map<string, { goal: string; index: number; base: TaskOutcome | null; head: TaskOutcome | null }>()
  for (const t of base?.tasks ?? []) byKey.set(t.key, { goal: t.goal, index: t.index, base: t, head: null })
  for (const t of head?.tasks ?? []) {
    const row = byKey.get(t.key)
    if (row) row.head = t
    else byKey.set(t.key, { goal: t.goal, index: t.index, base: null, head: t })
  }
  return [...byKey.entries()]
    .sort((a, b) => a[1].index - b[1].index)
    .map(([key, r]) => ({ key, goal: r.goal, change: taskChange(r.base, r.head), base: r.base, head: r.head }))
}

function modelChange(base: ThreatModelResult | undefined, head: ThreatModelResult | undefined): ModelChange {
  const m = (head ?? base)!
  const baseAsr = base ? asrOf(base) : null
  const headAsr = head ? asrOf(head) : null
  const iv =
    base && head
      ? differenceInterval({ successes: head.nSuccess, trials: head.nCompleted }, { successes: base.nSuccess, trials: base.nCompleted })
      : null
  const difference = base && head && iv ? head.nSuccess / head.nCompleted - base.nSuccess / base.nCompleted : 0
  return {
    key: m.key,
    label: `${head?.name ?? base?.name ?? grantsText(m.scope, m.readOnly)} (${m.attacker})`,
    target: m.target,
    claim: m.claim,
    attacker: m.attacker,
    scope: m.scope,
    readOnly: m.readOnly,
    presence: base && head ? 'both' : base ? 'only_base' : 'only_head',
    baseDir: base?.dir ?? null,
    headDir: head?.dir ?? null,
    baseAsr,
    headAsr,
    asrChange: iv === null ? null : { difference, interval: iv, shown: iv.low > 0 || iv.high < 0 },
    tasks: tasksOf(base, head),
  }
}

function frontierChange(question: string, base: readonly FrontierModel[], head: readonly FrontierModel[]): FrontierChange {
  const inBase = new Set(base.map((m) => m.key))
  const inHead = new Set(head.map((m) => m.key))
  return { question, newInHead: head.filter((m) => !inBase.has(m.key)), goneFromHead: base.filter((m) => !inHead.has(m.key)) }
}

function frontierChanges(base: Side, head: Side): FrontierChange[] | null {
  if (base.frontier === null || head.frontier === null) return null
  const out = [frontierChange('claim', base.frontier.claimWins, head.frontier.claimWins)]
  const baseTasks = new Map(base.frontier.tasks.map((t) => [t.key, t]))
  for (const t of head.frontier.tasks) {
    const b = baseTasks.get(t.key)
    if (b) out.push(frontierChange(t.key, b.wins, t.wins))
  }
  return out
}

const ORDER: Record<TaskChangeKind, number> = { regression: 0, fix: 1, only_head: 2, only_base: 3, unmeasured: 4, unchanged: 5 }
/** A threat model's rank in the listing: its most pressing task change first. */
const rank = (m: ModelChange) => Math.min(6, ...m.tasks.map((t) => ORDER[t.change]))

/**
 * BASE and HEAD compared. Sides that share no claim are refused (CompareInputError naming both paths): nothing
 * in one could tell anything of the other.
 */
export function compareSides(base: Side, head: Side): Comparison {
  const baseClaims = claimsOf(base)
  const headClaims = claimsOf(head)
  if (![...headClaims].some((c) => baseClaims.has(c))) {
    throw new CompareInputError(
      `${head.path}: measures claim ${[...headClaims].join(', ')}, ${base.path} measures claim ` +
        `${[...baseClaims].join(', ')}: results of different claims cannot be compared`,
    )
  }
  const baseByKey = new Map(base.models.map((m) => [m.key, m]))
  const headByKey = new Map(head.models.map((m) => [m.key, m]))
  const keys = [...new Set([...baseByKey.keys(), ...headByKey.keys()])]
  const models = keys
    .map((k) => modelChange(baseByKey.get(k), headByKey.get(k)))
    .sort((a, b) => rank(a) - rank(b) || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0))
  const count = (kind: TaskChangeKind) => models.reduce((n, m) => n + m.tasks.filter((t) => t.change === kind).length, 0)
  return {
    base: base.path,
    head: head.path,
    models,
    frontier: frontierChanges(base, head),
    counts: {
      regressions: count('regression'),
      fixes: count('fix'),
      unchanged: count('unchanged'),
      onlyBase: count('only_base'),
      onlyHead: count('only_head'),
      unmeasured: count('unmeasured'),
      breachedInHead: models.reduce((n, m) => n + m.tasks.filter((t) => t.head?.outcome === 'breached').length, 0),
    },
  }
}

/** Each task's change by `${model key}\n${task key}`, for JUnit's and SARIF's messages. */
export function changesOf(c: Comparison): Map<string, TaskChangeKind> {
  return new Map(c.models.flatMap((m) => m.tasks.map((t) => [`${m.key}\n${t.key}`, t.change] as const)))
}
