/**
 * The live view of a run or sweep, as plain data: one lane per threat model
 * (its identity, the tasks running beneath it, the tasks finished), and the
 * events the engine's reporter turns into (applied in batches, one store
 * update per animation frame). Totals are derived from lanes, never stored.
 */
import type { DiagnosticLevel, ThreatModelInfo } from '../../../core/engine'

/** A lane's identity: exactly what the engine reports for its threat model. */
export type LaneInfo = ThreatModelInfo

export interface RunningTask {
  readonly index: number
  readonly goal: string
  readonly runs: number
  /** Pauses the attacker was asked about in the run under way (0 before its first). */
  readonly turn: number
  /** Best primary score so far (null before the first judged run). */
  readonly best: number | null
  readonly cost: number
  readonly startedAt: number
  /** What the attacker injected last, in the latest finished run (clipped); null before one or when it injected nothing. */
  readonly said: string | null
}

/** A score as the evaluator gave it: `domain` is the tag a sub-score pertains to (null: always visible). */
export interface ScoreLine {
  readonly key: string
  readonly name: string
  readonly value: number
  readonly domain: string | null
}

/** The best run's evaluation, as the claim's evaluator (or a served task, on the server) returned it. */
export interface TaskEvaluation {
  readonly primary: ScoreLine
  readonly subScores: readonly ScoreLine[]
  readonly rationale: string
}

export interface FinishedTask {
  readonly index: number
  readonly goal: string
  readonly stopReason: string
  /** superred's task status: success, failed, error, budget_exhausted, timeout, timeout_empty, skipped. */
  readonly status: string
  readonly success: boolean
  readonly best: number
  readonly runs: number
  readonly cost: number
  /** The first line of the error, clipped; null when none. */
  readonly error: string | null
  /** Kept from an earlier run of the same identity (resume), not rerun. */
  readonly kept: boolean
  /** Null when no run was judged (skipped, errored before a verdict, kept from disk). */
  readonly evaluation: TaskEvaluation | null
  /** Runs whose success was the attacker's own echo (0 when none, and for a task kept from disk). */
  readonly echoed?: number
  /** Those echoes were counted as successes (the console's "count echoes" switch). */
  readonly echoesCounted?: boolean
  /** What the attacker injected last, in its last run (clipped); null when it injected nothing. */
  readonly said: string | null
}

export type LaneStatus = 'queued' | 'running' | 'done' | 'cancelled'

export interface Lane {
  readonly info: LaneInfo
  readonly status: LaneStatus
  readonly running: Readonly<Record<number, RunningTask>>
  readonly finished: readonly FinishedTask[]
  readonly problems: readonly string[]
  readonly resultsDir: string | null
}

export type SessionState = 'running' | 'cancelling' | 'finished' | 'cancelled' | 'failed'

export interface RunSession {
  readonly id: string
  readonly kind: 'single' | 'sweep'
  readonly title: string
  readonly startedAt: number
  readonly endedAt: number | null
  readonly state: SessionState
  readonly error: string | null
  readonly order: readonly string[]
  readonly lanes: Readonly<Record<string, Lane>>
  /** Set for sweeps: the record the results view reads back. */
  readonly sweepId: string | null
  /** What the live view says beside its numbers (the attacker's turn limit, a model without a price). */
  readonly limits: LiveLimits
}

export interface LiveLimits {
  /** The attacker's turns per run (null: it has none, e.g. a template attacker). */
  readonly maxTurns: number | null
  /** An LLM the run calls that has no price: its costs show as "unpriced", never $0. Null when all are priced. */
  readonly unpricedModel: string | null
}

export const NO_LIMITS: LiveLimits = { maxTurns: null, unpricedModel: null }

export type LiveEvent =
  | { readonly t: 'tmStart'; readonly key: string }
  | { readonly t: 'taskStart'; readonly key: string; readonly index: number; readonly goal: string; readonly at: number }
  | { readonly t: 'turn'; readonly key: string; readonly index: number; readonly turn: number }
  | {
      readonly t: 'run'
      readonly key: string
      readonly index: number
      readonly score: number | null
      readonly cost: number
      readonly said: string | null
    }
  | { readonly t: 'taskDone'; readonly key: string; readonly task: FinishedTask }
  | { readonly t: 'tmEnd'; readonly key: string; readonly cancelled: boolean; readonly resultsDir: string | null }
  | { readonly t: 'problem'; readonly key: string | null; readonly level: DiagnosticLevel; readonly message: string }
