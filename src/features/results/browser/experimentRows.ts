/**
 * The experiment list's rows, named by what they are rather than by folder:
 * the threat model (its saved name, else the tags it grants), target, claim,
 * attacker, when, outcome, cost. Pure, so the list's order and filter are tested
 * without a page.
 */
import { costShort, type ExperimentsIndexRow, type UnpricedJson } from '../../../core/results'
import { rateWords } from '../../../core/stats'

export interface ExperimentRowView {
  readonly dir: string
  readonly hash: string
  readonly threatModel: string
  /** Whether the name is a saved one (threat_model.json's, or superred's scope_label) rather than the granted tags spelled out. */
  readonly named: boolean
  /** The tags it grants, spelled out: under a saved name, so the name never hides the scope. */
  readonly grants: string
  readonly target: string
  readonly claim: string
  readonly attacker: string
  readonly when: string | null
  readonly inProgress: boolean
  readonly outcome: string
  /** The LLM spend in USD; null when the tree does not say (a summary without usage). */
  readonly cost: number | null
  /** Calls among the cost's that had no price (the index row's `unpriced`): the cost then says "unpriced", never $0. */
  readonly unpriced: UnpricedJson | null
  readonly calls: number | null
}

/** The tags a threat model grants, read-only ones marked; what a user recognises when no name was saved. */
export function grantedTags(scope: readonly string[], readOnly: readonly string[]): string {
  const parts = [...scope, ...readOnly.map((t) => `${t} (read only)`)]
  return parts.length === 0 ? 'nothing granted' : parts.join(', ')
}

/** The ASR with its n (completed tasks) and 95% interval, or "not broken in N tasks by <attacker>" (src/core/stats). */
function outcomeOf(row: ExperimentsIndexRow, inProgress: boolean): string {
  const { n_success: ok, n_completed: done } = row.summary
  if (inProgress) return `in progress: ${ok ?? 0} of ${done ?? 0} so far`
  if (done === null || done === undefined) return row.status
  return rateWords(ok ?? 0, done, { unit: 'task', attacker: row.experiment.attacker }).text
}

export function experimentRowView(row: ExperimentsIndexRow): ExperimentRowView {
  const e = row.experiment
  const inProgress = row.status !== 'complete'
  const label = row.threat_model_name?.trim() || e.scope_label?.trim()
  const grants = grantedTags(e.scope, e.read_only)
  return {
    dir: row.dir,
    hash: row.hash,
    threatModel: label ? label : grants,
    named: Boolean(label),
    grants,
    target: e.target,
    claim: e.claim,
    attacker: e.model ? `${e.attacker} (${e.model})` : e.attacker,
    when: row.completed_at,
    inProgress,
    outcome: outcomeOf(row, inProgress),
    cost: row.summary.total_llm_usage?.cost ?? null,
    unpriced: row.unpriced ?? null,
    calls: row.summary.total_llm_usage?.calls ?? null,
  }
}

/** Unfinished first (they are the ones being watched), then the most recently completed; the folder name breaks ties. */
export function newestFirst(rows: readonly ExperimentRowView[]): ExperimentRowView[] {
  const time = (r: ExperimentRowView) => (r.when === null ? Number.POSITIVE_INFINITY : Date.parse(r.when) || 0)
  return [...rows].sort((a, b) => time(b) - time(a) || (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0))
}

/** Every word of the query must appear in one of the row's names (case-insensitive). */
export function matchesQuery(row: ExperimentRowView, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  if (words.length === 0) return true
  const text = [row.threatModel, row.grants, row.target, row.claim, row.attacker, row.outcome, row.dir].join('\n').toLowerCase()
  return words.every((w) => text.includes(w))
}

export function viewExperiments(rows: readonly ExperimentsIndexRow[], query: string): ExperimentRowView[] {
  return newestFirst(rows.map(experimentRowView)).filter((r) => matchesQuery(r, query))
}

/** Dollars to four places, five below a cent (a demo run costs a tenth of a cent), as the run console counts them. */
export const costText = (cost: number | null, unpriced: UnpricedJson | null = null, calls: number | null = null) =>
  cost === null ? '–' : costShort(cost, unpriced, { digits: cost > 0 && cost < 0.01 ? 5 : 4, ...(calls === null ? {} : { calls }) })

/** A date a person reads, in their own locale; the ISO string stays in the title. */
export const whenText = (iso: string | null) =>
  iso === null ? 'not finished' : Number.isNaN(Date.parse(iso)) ? iso : new Date(iso).toLocaleString()
