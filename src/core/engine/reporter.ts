/**
 * Live progress, at the reference's lifecycle points. The UI and the CLI
 * implement the methods they care about; a reporter that throws fails only
 * the task it was reporting on (or is logged, outside a task).
 */
import type { RunResult, TaskResult, ThreatModelResult } from './outcomes'

/** Which threat model an event is about (several run at once under run_all). */
export interface ThreatModelInfo {
  /** `{slug}-{hash8}`: unique per identity, the results folder name. */
  readonly key: string
  readonly attacker: string
  readonly target: string
  readonly claim: string
  readonly model: string | null
  readonly scope: readonly string[]
  readonly readOnly: readonly string[]
  readonly scopeLabel: string | null
  readonly nTasks: number
  readonly maxRunsPerTask: number
}

export type DiagnosticLevel = 'info' | 'warning' | 'error'

/**
 * Is this diagnostic a results file that could not be written (disk full,
 * storage quota)? The task itself went fine, so its row shows no error: a
 * reporter must say this one out loud, or the results are silently incomplete.
 */
export function isResultsWriteFailure(message: string): boolean {
  return /^(failed to persist task|failed to finalize results|could not write domain\.json)/.test(message)
}

export interface ProgressReporter {
  threatModelStart?(info: ThreatModelInfo): void
  /** A task starts (also reported for tasks that are then skipped). */
  taskStart?(info: ThreatModelInfo, index: number, goal: string): void
  /**
   * A pause reached the optimizer: the `turn`-th of run `runNumber` (1-based, counting only the pauses the
   * optimizer is asked about, not those the scope declines). For a live "turn k / N".
   */
  turn?(info: ThreatModelInfo, index: number, runNumber: number, turn: number): void
  runComplete?(info: ThreatModelInfo, index: number, run: RunResult): void
  /** Also reported, first, for each task kept from disk on resume (then `result.nRuns` is set and `runs` empty). */
  taskComplete?(info: ThreatModelInfo, result: TaskResult): void
  taskSkipped?(info: ThreatModelInfo, index: number, goal: string, reason: string): void
  threatModelEnd?(info: ThreatModelInfo, result: ThreatModelResult): void
  diagnostic?(info: ThreatModelInfo | null, level: DiagnosticLevel, message: string, taskIndex?: number): void
}

/** Fans one event out to several reporters (e.g. the UI and a log). */
export function combineReporters(...reporters: readonly ProgressReporter[]): ProgressReporter {
  const each =
    <K extends keyof ProgressReporter>(key: K) =>
    (...args: Parameters<NonNullable<ProgressReporter[K]>>) => {
      for (const r of reporters) (r[key] as ((...a: typeof args) => void) | undefined)?.(...args)
    }
  return {
    threatModelStart: each('threatModelStart'),
    taskStart: each('taskStart'),
    turn: each('turn'),
    runComplete: each('runComplete'),
    taskComplete: each('taskComplete'),
    taskSkipped: each('taskSkipped'),
    threatModelEnd: each('threatModelEnd'),
    diagnostic: each('diagnostic'),
  }
}
