/**
 * Engine objects → the reference's JSON shapes (semantics §6). Tags are
 * written by name only. Numbers Python holds as floats are wrapped in
 * PyFloat so the files print `0.0` and `0.5` as superred's do.
 */
import { compareNames, scopeNames, type Scope, type SecurityDomainTag } from '../tags'
import type { OfferedSurfaces, RunResult, TaskResult } from '../engine/outcomes'
import type { Controllable, EvaluationResult, LLMUsage, Observable, Score } from '../engine/types'
import { utcIso } from '../engine/time'
import { SCHEMA_VERSION } from './format'
import { pyFloat } from './pyjson'
import { goalHash, runFileName } from './slug'
import type { ExperimentMeta } from './identityHash'

const tagName = (tag: SecurityDomainTag | null) => tag?.name ?? null

export function scoreJson(s: Score) {
  return { name: s.name, value: pyFloat(s.value), security_domain: tagName(s.securityDomain) }
}

export function evaluationJson(e: EvaluationResult) {
  return {
    success: e.success,
    primary_score: scoreJson(e.primaryScore),
    sub_scores: Object.fromEntries(Object.entries(e.subScores).map(([k, v]) => [k, scoreJson(v)])),
    rationale: e.rationale,
  }
}

export function controllableJson(c: Controllable) {
  return { name: c.name, security_domain: tagName(c.securityDomain), description: c.description, value_type: c.valueType }
}

export function observableJson(o: Observable) {
  return { name: o.name, security_domain: tagName(o.securityDomain), description: o.description, observable_type: o.observableType }
}

export function usageJson(u: LLMUsage) {
  return { calls: u.calls, cost: pyFloat(u.cost) }
}

export function timingJson(started: Date | null, ended: Date | null) {
  return {
    started_at: started === null ? null : utcIso(started),
    ended_at: ended === null ? null : utcIso(ended),
    duration_s: started === null || ended === null ? null : pyFloat((ended.getTime() - started.getTime()) / 1000),
  }
}

/** Runs that completed and were judged (an errored partial run is neither). */
export function measuredRuns(tr: TaskResult): number {
  return tr.runs.filter((r) => r.evaluated).length
}

export function taskStatus(success: boolean, stopReason: TaskResult['stopReason'], nMeasured: number) {
  if (stopReason === 'error') return 'error'
  if (stopReason === 'timeout') return nMeasured >= 1 ? 'timeout' : 'timeout_empty'
  if (success) return 'success'
  if (stopReason === 'budget_exhausted') return 'budget_exhausted'
  return 'failed'
}

export function taskFileJson(tr: TaskResult, index: number, meta: ExperimentMeta) {
  const goal = tr.task.goal.description
  return {
    schema_version: SCHEMA_VERSION,
    index,
    goal,
    goal_hash: goalHash(goal),
    scope: scopeNames(tr.scope),
    read_only: scopeNames(tr.readOnly),
    // Secrets never enter results: the model name only.
    llm_config: meta.model === null ? null : { model: meta.model },
    task_cost_cap_usd: pyFloat(meta.taskCostCapUsd),
    task_time_cap_s: pyFloat(meta.taskTimeCapS),
    status: taskStatus(tr.success, tr.stopReason, measuredRuns(tr)),
    success: tr.success,
    stop_reason: tr.stopReason,
    best_score: scoreJson(tr.bestScore),
    best_evaluation: evaluationJson(tr.bestEvaluation),
    n_runs: tr.runs.length,
    n_measured_runs: measuredRuns(tr),
    llm_usage: usageJson(tr.llmUsage),
    timing: timingJson(tr.startedAt, tr.endedAt),
    error: tr.error,
  }
}

function iterationJson(run: RunResult, runNumber: number) {
  return {
    run_number: runNumber,
    primary_score: pyFloat(run.evaluation.primaryScore.value),
    success: run.evaluation.success,
    evaluated: run.evaluated,
    errored: run.errored,
    done: run.done,
    usage_delta: usageJson(run.runUsageDelta),
    usage_cumulative: usageJson(run.llmUsage),
    timing: timingJson(run.startedAt, run.endedAt),
    trajectory: `trajectories/${runFileName(runNumber)}`,
  }
}

export function iterationsFileJson(tr: TaskResult, index: number) {
  return { schema_version: SCHEMA_VERSION, index, goal: tr.task.goal.description, runs: tr.runs.map((r, i) => iterationJson(r, i + 1)) }
}

export function attackerFileJson(scope: Scope, readOnly: Scope, offered: OfferedSurfaces) {
  return {
    schema_version: SCHEMA_VERSION,
    scope: scopeNames(scope),
    read_only: scopeNames(readOnly),
    controllables: offered.controllables.map(controllableJson),
    observables: offered.observables.map((o) => ({ observable: observableJson(o.observable), content: o.content })),
  }
}

export function experimentJson(meta: ExperimentMeta, slug: string, hash: string) {
  return {
    slug, hash, attacker: meta.attacker, target: meta.target, claim: meta.claim, model: meta.model,
    scope: [...meta.scope].sort(compareNames), read_only: [...meta.readOnly].sort(compareNames), scope_label: meta.scopeLabel,
    task_cost_cap_usd: pyFloat(meta.taskCostCapUsd), task_time_cap_s: pyFloat(meta.taskTimeCapS),
    max_runs_per_task: meta.maxRunsPerTask, include_feedback: meta.includeFeedback, concurrency: meta.concurrency, n_tasks: meta.nTasks,
  }
}
