/**
 * An experiment's manifest.json and result.json, and a task's attacker.json, printed straight from the session's
 * views, as json.dumps(indent=2, ensure_ascii=False) prints superred's: the same text as building each file's JSON
 * shape (semantics §6) and printing it through pyDumps. A sweep rewrites the manifest as each task lands, so the
 * manifest is its most printed file after the trajectories: through the shapes, each print built an object per
 * task and per float and ran JSON.stringify with a marker per float and a pass to replace them. Here the parts that
 * do not change are printed once: the experiment block once per session, a task's entry once per view of it.
 */
import type { OfferedSurfaces } from '../engine/outcomes'
import { utcIso } from '../engine/time'
import { scopeNames, type Scope } from '../tags'
import type { ResultsSchemaVersion } from './format'
import { AT, descriptorText, float, int, listText, namesText, value } from './printParts'
import { pyDumps, pyFloatRepr, type PyFloat } from './pyjson'
import { experimentAsSchema } from './schema4'
import type { computeSummary, TaskView } from './summary'

type Summary = ReturnType<typeof computeSummary>

const floatOf = (f: PyFloat | null): string => float(f === null ? null : f.value)

/** The experiment block at depth 1, from its JSON shape (printed once per session, so through pyDumps). */
export function experimentText(experiment: Record<string, unknown>, schema: ResultsSchemaVersion): string {
  return pyDumps(experimentAsSchema(schema, experiment), { indent: 2, ensureAscii: false }, 1)
}

/** The summary at depth 1; schema 4 has no timeout counts. */
export function summaryText(s: Summary, schema: ResultsSchemaVersion): string {
  const at = AT[2]
  return `{${at}"asr": ${floatOf(s.asr)},${at}"n_tasks": ${int(s.n_tasks)},${at}"n_success": ${int(s.n_success)},${
    at
  }"n_completed": ${int(s.n_completed)},${at}"n_failed": ${int(s.n_failed)},${at}"n_error": ${int(s.n_error)},${
    at
  }"n_budget_exhausted": ${int(s.n_budget_exhausted)},${
    schema === 4 ? '' : `${at}"n_timeout": ${int(s.n_timeout)},${at}"n_timeout_empty": ${int(s.n_timeout_empty)},`
  }${at}"n_skipped": ${int(s.n_skipped)},${at}"max_primary_score": ${floatOf(s.max_primary_score)},${
    at
  }"mean_primary_score": ${floatOf(s.mean_primary_score)},${at}"total_llm_usage": {${AT[3]}"calls": ${int(s.total_llm_usage.calls)},${
    AT[3]
  }"cost": ${floatOf(s.total_llm_usage.cost)}${at}}${AT[1]}}`
}

/** Entries by view: a manifest rewrite prints again only the tasks that changed since the last one. */
const entries = new WeakMap<TaskView, string>()

/** A task's entry in the manifest's task list (depth 2). */
export function manifestEntryText(v: TaskView): string {
  let text = entries.get(v)
  if (text === undefined) {
    const at = AT[3]
    text = `{${at}"index": ${int(v.index)},${at}"goal": ${value(v.goal, 3)},${at}"goal_hash": ${value(v.goalHash, 3)},${
      at
    }"dir": ${value(v.dir, 3)},${at}"status": ${value(v.status, 3)},${at}"success": ${v.success},${
      at
    }"best_score": ${pyFloatRepr(v.bestScore)},${at}"stop_reason": ${value(v.stopReason, 3)},${at}"n_runs": ${int(v.nRuns)},${
      at
    }"cost_usd": ${pyFloatRepr(v.cost)},${at}"has_error": ${v.error !== null},${at}"started_at": ${value(v.startedAt, 3)},${
      at
    }"ended_at": ${value(v.endedAt, 3)}${AT[2]}}`
    entries.set(v, text)
  }
  return text
}

/** A skipped task's entry (it has no folder): only the manifest names it. */
export function skippedEntryText(index: number, goal: string, goalHash: string): string {
  const at = AT[3]
  return `{${at}"index": ${int(index)},${at}"goal": ${value(goal, 3)},${at}"goal_hash": ${value(goalHash, 3)},${at}"dir": null,${
    at
  }"status": "skipped",${at}"success": false,${at}"best_score": 0.0,${at}"stop_reason": "skipped",${at}"n_runs": 0,${
    at
  }"cost_usd": 0.0,${at}"has_error": false,${at}"started_at": null,${at}"ended_at": null${AT[2]}}`
}

export interface ManifestParts {
  readonly status: 'in_progress' | 'complete'
  /** experimentText's print. */
  readonly experiment: string
  /** A string is a time read back from the experiment's own result.json, printed as it was. */
  readonly startedAt: Date | string | null
  readonly completedAt: string | null
  readonly summary: Summary
  /** Entry texts in index order. */
  readonly entries: readonly string[]
}

export function manifestText(m: ManifestParts, schema: ResultsSchemaVersion): string {
  const at = AT[1]
  return `{${at}"schema_version": ${schema},${at}"status": "${m.status}",${at}"experiment": ${m.experiment},${
    at
  }"timing": {${AT[2]}"started_at": ${m.startedAt instanceof Date ? `"${utcIso(m.startedAt)}"` : value(m.startedAt, 2)},${
    AT[2]
  }"completed_at": ${value(m.completedAt, 2)}${at}},${at}"summary": ${summaryText(m.summary, schema)},${at}"tasks": ${listText(m.entries, 1)}${AT[0]}}`
}

export function resultText(
  experiment: string,
  startedAt: Date,
  completedAt: string,
  summary: Summary,
  schema: ResultsSchemaVersion,
): string {
  const at = AT[1]
  return `{${at}"schema_version": ${schema},${at}"experiment": ${experiment},${at}"timing": {${AT[2]}"started_at": "${utcIso(startedAt)}",${
    AT[2]
  }"completed_at": ${value(completedAt, 2)}${at}},${at}"summary": ${summaryText(summary, schema)}${AT[0]}}`
}

/** A task's attacker.json: what the attacker was offered, under its scope and read_only. */
export function attackerFileText(scope: Scope, readOnly: Scope, offered: OfferedSurfaces, schema: ResultsSchemaVersion): string {
  const at = AT[1]
  const controllables = offered.controllables.map((c) => descriptorText(c, 'value_type', c.valueType, 2))
  const observables = offered.observables.map(
    (o) =>
      `{${AT[3]}"observable": ${descriptorText(
        o.observable,
        'observable_type',
        o.observable.observableType,
        3,
      )},${AT[3]}"content": ${value(o.content, 3)}${AT[2]}}`,
  )
  return `{${at}"schema_version": ${schema},${at}"scope": ${namesText(scopeNames(scope), 1)},${at}"read_only": ${namesText(
    scopeNames(readOnly),
    1,
  )},${at}"controllables": ${listText(controllables, 1)},${at}"observables": ${listText(observables, 1)}${AT[0]}}`
}
