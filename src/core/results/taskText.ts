/**
 * A task's task.json and iterations.json printed straight from its TaskResult, as json.dumps(indent=2,
 * ensure_ascii=False) prints superred's: the same text as building the JSON shape (semantics §6) and printing it
 * through pyDumps. A sweep writes both for every task it runs; the shape route built an object per field, scanned
 * them for floats and ran JSON.stringify with a gap and a marker per float, about 20 µs a file (see trajectoryText
 * for the same reasoning about the trajectories). Schema 4 leaves out task_time_cap_s and n_measured_runs.
 */
import type { RunResult, TaskResult } from '../engine/outcomes'
import type { LLMUsage } from '../engine/types'
import { utcIso } from '../engine/time'
import { scopeNames } from '../tags'
import type { ResultsSchemaVersion } from './format'
import type { ExperimentMeta } from './identityHash'
import { AT, evaluationText, float, int, listText, namesText, scoreText, value } from './printParts'
import { goalHash, runFileName } from './slug'

/** Runs that completed and were judged (an errored partial run is neither). */
export function measuredRuns(tr: TaskResult): number {
  let n = 0
  for (const r of tr.runs) if (r.evaluated) n++
  return n
}

export function taskStatus(success: boolean, stopReason: TaskResult['stopReason'], nMeasured: number) {
  if (stopReason === 'error') return 'error'
  if (stopReason === 'timeout') return nMeasured >= 1 ? 'timeout' : 'timeout_empty'
  if (success) return 'success'
  if (stopReason === 'budget_exhausted') return 'budget_exhausted'
  return 'failed'
}

function usageText(u: LLMUsage, depth: number): string {
  return `{${AT[depth + 1]}"calls": ${int(u.calls)},${AT[depth + 1]}"cost": ${float(u.cost)}${AT[depth]}}`
}

function timingText(started: Date | null, ended: Date | null, depth: number): string {
  const at = AT[depth + 1]
  const duration = started === null || ended === null ? null : (ended.getTime() - started.getTime()) / 1000
  // An isoformat print is digits and punctuation: quoted as it is.
  return `{${at}"started_at": ${started === null ? 'null' : `"${utcIso(started)}"`},${at}"ended_at": ${
    ended === null ? 'null' : `"${utcIso(ended)}"`
  },${at}"duration_s": ${float(duration)}${AT[depth]}}`
}

/** What task.json says, beside its text: the session's view of the task is read off these, not re-parsed. */
export interface TaskFile {
  readonly text: string
  readonly goalHash: string
  readonly status: ReturnType<typeof taskStatus>
}

export function taskFileText(tr: TaskResult, index: number, meta: ExperimentMeta, schema: ResultsSchemaVersion): TaskFile {
  const goal = tr.task.goal.description
  const hash = goalHash(goal)
  const measured = measuredRuns(tr)
  const status = taskStatus(tr.success, tr.stopReason, measured)
  const at = AT[1]
  // Secrets never enter results: of the LLM configuration, the model name only.
  const llm = meta.model === null ? 'null' : `{${AT[2]}"model": ${value(meta.model, 2)}${at}}`
  const text = `{${at}"schema_version": ${schema},${at}"index": ${int(index)},${at}"goal": ${value(goal, 1)},${at}"goal_hash": ${JSON.stringify(hash)},${
    at
  }"scope": ${namesText(scopeNames(tr.scope), 1)},${at}"read_only": ${namesText(scopeNames(tr.readOnly), 1)},${at}"llm_config": ${llm},${
    at
  }"task_cost_cap_usd": ${float(meta.taskCostCapUsd)},${schema === 4 ? '' : `${at}"task_time_cap_s": ${float(meta.taskTimeCapS)},`}${
    at
  }"status": "${status}",${at}"success": ${tr.success},${at}"stop_reason": "${tr.stopReason}",${
    at
  }"best_score": ${scoreText(tr.bestScore, 1)},${at}"best_evaluation": ${evaluationText(tr.bestEvaluation, 1)},${
    at
  }"n_runs": ${tr.runs.length},${schema === 4 ? '' : `${at}"n_measured_runs": ${measured},`}${at}"llm_usage": ${usageText(tr.llmUsage, 1)},${
    at
  }"timing": ${timingText(tr.startedAt, tr.endedAt, 1)},${at}"error": ${tr.error === null ? 'null' : value(tr.error, 1)}${AT[0]}}`
  return { text, goalHash: hash, status }
}

/** One run of iterations.json, at depth 2. */
function iterationText(run: RunResult, runNumber: number): string {
  const at = AT[3]
  return `{${at}"run_number": ${runNumber},${at}"primary_score": ${float(run.evaluation.primaryScore.value)},${at}"success": ${run.evaluation.success},${
    at
  }"evaluated": ${run.evaluated},${at}"errored": ${run.errored},${at}"done": ${run.done},${at}"usage_delta": ${usageText(run.runUsageDelta, 3)},${
    at
  }"usage_cumulative": ${usageText(run.llmUsage, 3)},${at}"timing": ${timingText(run.startedAt, run.endedAt, 3)},${
    at
  }"trajectory": "trajectories/${runFileName(runNumber)}"${AT[2]}}`
}

export function iterationsFileText(tr: TaskResult, index: number, schema: ResultsSchemaVersion): string {
  const runs = listText(
    tr.runs.map((r, i) => iterationText(r, i + 1)),
    1,
  )
  return `{${AT[1]}"schema_version": ${schema},${AT[1]}"index": ${int(index)},${AT[1]}"goal": ${value(tr.task.goal.description, 1)},${
    AT[1]
  }"runs": ${runs}${AT[0]}}`
}
