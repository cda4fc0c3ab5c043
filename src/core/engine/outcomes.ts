/** What a Controller returns: per run, per task, per threat model (superred's result dataclasses). */
import type { Scope } from '../tags'
import type { TrajectoryItem } from './events'
import type { RunEcho } from './echo'
import type { Task } from './target'
import type { Controllable, EvaluationResult, LLMUsage, ObservableValue, Score, StopReason } from './types'

/**
 * Why a run ended (redscope extra, persisted in the task's run_ends.json): the target finished on its own; the
 * attacker declined its last pause (which ends a conversation that asks again after every answer); the attacker's
 * turn limit declined it; the task's time cap cut it short; or it failed.
 */
export type RunEndCause = 'target' | 'declined' | 'turn_limit' | 'time_cap' | 'error'
export const RUN_END_CAUSES: readonly RunEndCause[] = ['target', 'declined', 'turn_limit', 'time_cap', 'error']

export interface RunEnding {
  readonly cause: RunEndCause
  /** Pauses the optimizer was asked about in the run (declined ones included). */
  readonly turns: number
}

export interface RunResult {
  readonly runNumber: number
  /** The full (unfiltered) trajectory, in emit order. */
  readonly trajectory: readonly TrajectoryItem[]
  /** What the optimizer saw of this run (filtered on visibility). redscope extra. */
  readonly attackerView: readonly TrajectoryItem[]
  /** Unfiltered. For an errored run: a zero score and "Run N failed: Type: msg". */
  readonly evaluation: EvaluationResult
  /** Task's cumulative usage at the end of this run. */
  readonly llmUsage: LLMUsage
  readonly runUsageDelta: LLMUsage
  readonly startedAt: Date
  readonly endedAt: Date
  /** The evaluator judged this run (false when it errored). */
  readonly evaluated: boolean
  readonly errored: boolean
  /** The optimizer answered the RunEndEvent with done=true. */
  readonly done: boolean
  /** redscope extra: the claim's success was the attacker's own echo (see echo.ts); absent or null otherwise. */
  readonly echo?: RunEcho | null
  /** redscope extra: why the run ended; absent for runs read back from a tree that does not record it. */
  readonly ending?: RunEnding | null
}

/**
 * A RunResult as the run loop records it: its two times are kept as epoch
 * milliseconds and the Dates are made when read (derived, not stored: two
 * objects less per kept run, which a profile showed in the collector's work
 * as thousands of runs accumulate).
 */
export class RecordedRun implements RunResult {
  constructor(
    readonly runNumber: number,
    readonly trajectory: readonly TrajectoryItem[],
    readonly attackerView: readonly TrajectoryItem[],
    readonly evaluation: EvaluationResult,
    readonly llmUsage: LLMUsage,
    readonly runUsageDelta: LLMUsage,
    readonly startedMs: number,
    readonly endedMs: number,
    readonly evaluated: boolean,
    readonly errored: boolean,
    readonly done: boolean,
    readonly echo: RunEcho | null = null,
    readonly ending: RunEnding | null = null,
  ) {}

  get startedAt(): Date {
    return new Date(this.startedMs)
  }

  get endedAt(): Date {
    return new Date(this.endedMs)
  }
}

/** What the optimizer was offered for a task (redscope extra, persisted as attacker.json). */
export interface OfferedSurfaces {
  readonly controllables: readonly Controllable[]
  readonly observables: readonly ObservableValue[]
}

/**
 * What an attacker said about its own reasoning (redscope extra, `attacker_notes.json`): a served superred
 * optimizer's LLM replies (PAIR's `{"improvement", "prompt"}`), in the order they came.
 */
export interface AttackerNote {
  /** The run it was said in (1-based); 0 before the first run started. */
  readonly run: number
  /** What the optimizer was answering: an event type, 'initialize' or 'teardown'. */
  readonly during: string
  readonly text: string
}

export interface TaskResult {
  readonly task: Task
  /** 1-based position in the claim. */
  readonly index: number
  readonly runs: readonly RunResult[]
  readonly bestScore: Score
  readonly bestEvaluation: EvaluationResult
  readonly success: boolean
  readonly llmUsage: LLMUsage
  readonly stopReason: StopReason
  /** This task's resolved write scope and read-only set. */
  readonly scope: Scope
  readonly readOnly: Scope
  /** Formatted error (with stack) when something failed, else null. */
  readonly error: string | null
  readonly startedAt: Date
  readonly endedAt: Date
  /** Set only on a task kept from disk on resume (its runs are not reloaded). */
  readonly nRuns?: number
  readonly offered?: OfferedSurfaces
  /** What the attacker recorded of its reasoning, when it records any (a served optimizer does). */
  readonly attackerNotes?: readonly AttackerNote[]
}

export interface SkippedTask {
  readonly task: Task
  readonly index: number
  readonly reason: string
}

export interface ThreatModelResult {
  /** Empty in dynamic (resolver) mode; then `scopeLabel` names the scope. */
  readonly scope: Scope
  readonly readOnly: Scope
  /** Only the model name: secrets never enter results. */
  readonly llmConfig: { readonly model: string } | null
  /** In claim order; skipped tasks are not here. */
  readonly taskResults: readonly TaskResult[]
  readonly taskCostCapUsd: number | null
  readonly skippedTasks: readonly SkippedTask[]
  readonly scopeLabel: string | null
  readonly startedAt: Date
  readonly endedAt: Date
  /** True when an AbortSignal stopped the run before every task finished. */
  readonly cancelled: boolean
  /** The results folder, when persisted. */
  readonly resultsDir: string | null
}

/** Stop reasons whose tasks count in the attack success rate (errors and skips never do). */
const COMPLETED: ReadonlySet<StopReason> = new Set<StopReason>(['success', 'done', 'max_runs', 'budget_exhausted'])

/** ASR as the reference's live report: successes among completed tasks, or null if none completed. */
export function attackSuccessRate(results: readonly TaskResult[]): number | null {
  const completed = results.filter((r) => COMPLETED.has(r.stopReason))
  return completed.length === 0 ? null : completed.filter((r) => r.success).length / completed.length
}
