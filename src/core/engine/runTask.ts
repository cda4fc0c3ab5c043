/**
 * A task's run loop (the reference's `_run_task`): configure, a fresh client
 * and optimizer, the offered surfaces, then runs until a stop reason.
 * Completed runs accumulate in `progress`, owned by the caller, so a
 * wall-clock cap that cuts the loop short keeps them.
 */
import type { Scope } from '../tags'
import { AbortLatch, abortable, finishOrAbandon } from './async'
import { BudgetExhaustedError, noopLLMClient, type LLMClient, type LLMClientFactory } from './budget'
import { EventChannel } from './channel'
import { describeError, formatError, TaskCancelled } from './errors'
import type { OptimizerFactory } from './optimizer'
import { RecordedRun, type OfferedSurfaces, type RunEndCause, type RunResult, type TaskResult } from './outcomes'
import { offeredSurfaces, type TaskScope } from './scopeResolution'
import { runSingle, type RunSingleOutput } from './runSingle'
import type { RunEcho } from './echo'
import type { Target, Task } from './target'
import { Trajectory } from './trajectory'
import {
  evaluationResult,
  score,
  subtractUsage,
  ZERO_USAGE,
  type EngineSemantics,
  type EvaluationResult,
  type LLMConfig,
  type LLMUsage,
  type Score,
  type StopReason,
} from './types'

export interface TaskEnv {
  readonly optimizerFactory: OptimizerFactory
  readonly llmConfig: LLMConfig | null
  readonly llmClientFactory: LLMClientFactory | null
  readonly taskCostCapUsd: number | null
  readonly maxRunsPerTask: number
  readonly includeFeedback: boolean
  /** Count a success the attacker echoed (echo.ts) as a success; by default it is judged a failure. */
  readonly countEchoes: boolean
  /** Cleanup budget once a cancellation is in flight (the reference's 5 s). */
  readonly graceMs: number
  readonly onRunComplete: (run: RunResult) => void
  /** Each pause the optimizer is asked about (for a live turn count); a failure is only logged. */
  readonly onTurn?: (runNumber: number, turn: number) => void
  /** 'superred-0.3.0': no success stop, and one more reset after the loop (see EngineSemantics). */
  readonly semantics: EngineSemantics
  readonly diagnostic: (level: 'info' | 'warning' | 'error', message: string) => void
}

/** What a task achieved so far; readable after the loop was cut short. */
export class TaskProgress {
  readonly runs: RunResult[] = []
  llm: LLMClient | null = null
  offered: OfferedSurfaces | undefined = undefined

  get usage(): LLMUsage {
    return this.llm?.usage ?? ZERO_USAGE
  }

  /** Best judged run: the maximum primary score, first of ties (Python's max). */
  get best(): { score: Score; evaluation: EvaluationResult } | null {
    let best: RunResult | null = null
    for (const run of this.runs) {
      if (run.evaluated && (best === null || run.evaluation.primaryScore.value > best.evaluation.primaryScore.value)) best = run
    }
    return best === null ? null : { score: best.evaluation.primaryScore, evaluation: best.evaluation }
  }

  get success(): boolean {
    return this.runs.some((r) => r.evaluated && r.evaluation.success)
  }
}

export function isCancellation(error: unknown): error is TaskCancelled {
  return error instanceof TaskCancelled
}

export function zeroEvaluation(rationale: string): EvaluationResult {
  return evaluationResult({ success: false, primaryScore: score(0), subScores: {}, rationale })
}

/** A result for a task that produced no run (errors and budget before the loop). */
export function emptyTaskResult(
  task: Task,
  index: number,
  init: {
    stopReason: StopReason
    rationale: string
    usage?: LLMUsage
    error?: unknown
    scope?: Scope
    readOnly?: Scope
    offered?: OfferedSurfaces
  },
): TaskResult {
  const zero = zeroEvaluation(init.rationale)
  const now = new Date()
  return {
    task,
    index,
    runs: [],
    bestScore: zero.primaryScore,
    bestEvaluation: zero,
    success: false,
    llmUsage: init.usage ?? ZERO_USAGE,
    stopReason: init.stopReason,
    scope: init.scope ?? new Set(),
    readOnly: init.readOnly ?? new Set(),
    error: init.error === undefined ? null : formatError(init.error),
    startedAt: now,
    endedAt: now,
    ...(init.offered ? { offered: init.offered } : {}),
  }
}

/**
 * Runs the loop. Errors before the loop (configure, initialize) are thrown to
 * the caller, except budget exhaustion in initialize. A cancellation (the
 * signal's TaskCancelled) is thrown after cleanup; the partial run is dropped.
 */
export async function runTask(
  env: TaskEnv,
  task: Task,
  index: number,
  target: Target,
  ts: TaskScope,
  progress: TaskProgress,
  signal: AbortSignal,
): Promise<TaskResult> {
  await abortable(
    Promise.resolve().then(() => task.configureTarget(target)),
    signal,
  )

  const client =
    env.llmConfig !== null && env.llmClientFactory !== null ? env.llmClientFactory(env.llmConfig, env.taskCostCapUsd, signal) : null
  progress.llm = client
  const optimizer = env.optimizerFactory()
  const offered = offeredSurfaces(target, ts)
  progress.offered = offered
  const cleanupOptimizer = async (when: string) => {
    const outcome = await finishOrAbandon(() => optimizer.teardown(), signal, env.graceMs)
    if (!outcome.ok)
      env.diagnostic('error', `optimizer.teardown ${when} ${'error' in outcome ? `failed: ${describeError(outcome.error)}` : 'abandoned'}`)
  }
  try {
    await abortable(
      Promise.resolve().then(() => optimizer.initialize(task.goal, offered.controllables, offered.observables, client ?? noopLLMClient())),
      signal,
    )
  } catch (error) {
    await cleanupOptimizer('after initialize failed')
    if (error instanceof BudgetExhaustedError) {
      return emptyTaskResult(task, index, {
        stopReason: 'budget_exhausted',
        rationale: 'LLM budget exhausted before first run completed.',
        usage: progress.usage,
        scope: ts.write,
        readOnly: ts.readOnly,
        offered,
      })
    }
    throw error
  }

  const channel = new EventChannel()
  // Settles, never rejects: an optimizer failure poisons the channel at once
  // (no send can hang) and is reported after the loop.
  const optimizerOutcome = Promise.resolve()
    .then(() => optimizer.run(channel))
    .then(
      () => null,
      (error: unknown) => {
        channel.setError(error)
        return { error }
      },
    )

  let stopReason = 'max_runs' as StopReason // widened: the loop closure assigns it
  let errorText: string | null = null
  let previousUsage = ZERO_USAGE
  const record = (
    runNumber: number,
    trajectory: Trajectory,
    evaluation: EvaluationResult,
    startedMs: number,
    outcome: 'judged' | 'errored' | 'partial',
    done: boolean,
    cause: RunEndCause,
    echo: RunEcho | null = null,
  ) => {
    const usage = progress.usage
    const full = new RecordedRun(
      runNumber,
      trajectory.keptItems(),
      trajectory.keptView(),
      evaluation,
      usage,
      usage === previousUsage ? ZERO_USAGE : subtractUsage(usage, previousUsage),
      startedMs,
      Date.now(),
      outcome === 'judged',
      outcome === 'errored',
      done,
      echo,
      { cause, turns },
    )
    previousUsage = usage
    progress.runs.push(full)
    try {
      env.onRunComplete(full)
    } catch (error) {
      env.diagnostic('error', `reporter runComplete failed: ${describeError(error)}`)
    }
  }
  // The loop is one abortable await for the whole task rather than one per
  // run and per reset: a cancellation unwinds this function at once, and the
  // abandoned loop stops at its next step (runSingle and the checks below
  // look at the signal after every await), never recording a run after it.
  const reportTurn = env.onTurn
  // Pauses the optimizer was asked about in the run in flight (recorded with the run's ending).
  let turns = 0
  const onTurn = (runNumber: number, turn: number) => {
    turns = turn
    if (reportTurn === undefined) return
    try {
      reportTurn(runNumber, turn)
    } catch (error) {
      env.diagnostic('error', `reporter turn failed: ${describeError(error)}`)
    }
  }
  const cancel = new AbortLatch(signal)
  // The run in flight, so a time cap that cuts it short can still record what it did (and spent).
  let current: { runNumber: number; trajectory: Trajectory; startedMs: number } | null = null
  const loop = async (): Promise<void> => {
    for (let runNumber = 1; runNumber <= env.maxRunsPerTask; runNumber++) {
      // Owned here, not by runSingle, so a failure mid-run keeps its partial trajectory.
      const trajectory = new Trajectory(ts.visibility)
      const startedMs = Date.now()
      current = { runNumber, trajectory, startedMs }
      turns = 0
      let outcome: RunSingleOutput
      try {
        outcome = await runSingle({
          task,
          target,
          channel,
          trajectory,
          scope: ts,
          includeFeedback: env.includeFeedback,
          countEchoes: env.countEchoes,
          cancel,
          onTurn: (turn) => onTurn(runNumber, turn),
        })
      } catch (error) {
        // After a cancellation, whatever the abandoned run threw (a send on the closed channel) is not this task's.
        cancel.check()
        if (isCancellation(error)) throw error
        if (error instanceof BudgetExhaustedError) {
          env.diagnostic('info', `LLM budget exhausted during run ${runNumber}, stopping task`)
          stopReason = 'budget_exhausted'
          break
        }
        env.diagnostic('error', `unexpected error during run ${runNumber}, stopping task: ${describeError(error)}`)
        errorText = formatError(error)
        current = null
        record(
          runNumber,
          trajectory,
          zeroEvaluation(`Run ${runNumber} failed: ${describeError(error)}`),
          startedMs,
          'errored',
          false,
          'error',
        )
        stopReason = 'error'
        break
      }
      cancel.check()
      current = null
      record(runNumber, trajectory, outcome.evaluation, startedMs, 'judged', outcome.done, outcome.endedBy, outcome.echo)
      // The claim decides success (an echo not counted is no success: its evaluation says so): stop without asking the optimizer, and without a reset.
      // superred 0.3.0 has no such stop: the run is reset and the optimizer decides, as after a failure.
      if (outcome.evaluation.success && env.semantics === 'redscope') {
        stopReason = 'success'
        break
      }
      try {
        await target.resetEphemeralState()
        cancel.check()
      } catch (error) {
        cancel.check()
        if (isCancellation(error)) throw error
        env.diagnostic('error', `target.resetEphemeralState() failed after run ${runNumber}, stopping task: ${describeError(error)}`)
        errorText = formatError(error)
        stopReason = 'error'
        break
      }
      if (outcome.done) {
        stopReason = 'done'
        break
      }
    }
  }
  try {
    await abortable(loop(), signal)
  } catch (error) {
    // The time cap cut a run short: unlike the reference, which drops it, record it unjudged, so the
    // turns it played and the money it spent are not lost ("0 runs" while the bill says otherwise).
    // The abandoned loop records nothing after the cancellation, so this is the run's only record.
    const cut = current as { runNumber: number; trajectory: Trajectory; startedMs: number } | null
    if (isCancellation(error) && error.why === 'timeout' && cut !== null) {
      const pauses = cut.trajectory
        .keptItems()
        .filter((it) => it.type === 'ControllablePreCallEvent' || it.type === 'ControllablePostCallEvent').length
      record(
        cut.runNumber,
        cut.trajectory,
        zeroEvaluation(
          `Run ${cut.runNumber} was cut short by the task's time cap after ${pauses} ` + `turn${pauses === 1 ? '' : 's'}: not judged.`,
        ),
        cut.startedMs,
        'partial',
        false,
        'time_cap',
      )
    }
    throw error
  } finally {
    cancel.release()
    channel.close()
    const joined = await finishOrAbandon(() => optimizerOutcome, signal, env.graceMs)
    if (joined.ok) {
      const failure = await optimizerOutcome
      if (failure !== null) {
        env.diagnostic('error', `optimizer task raised: ${describeError(failure.error)}`)
        // The loop's classification stands; the error only fills an empty slot.
        if (errorText === null) errorText = formatError(failure.error)
      }
    } else {
      env.diagnostic('warning', 'optimizer did not finish within the cleanup budget, abandoning it')
    }
    await cleanupOptimizer('post-run')
    if (env.semantics === 'superred-0.3.0') {
      // 0.3.0 resets once more after the loop, so the target ends reset even after its last run; failures only logged.
      const reset = await finishOrAbandon(() => target.resetEphemeralState(), signal, env.graceMs)
      if (!reset.ok)
        env.diagnostic(
          'error',
          `target.resetEphemeralState post-task ${'error' in reset ? `failed: ${describeError(reset.error)}` : 'abandoned'}`,
        )
    }
  }

  const notes = optimizer.attackerNotes?.() ?? []
  const best = progress.best
  const fallback = zeroEvaluation(
    stopReason === 'error' ? 'Unexpected error before first run completed.' : 'LLM budget exhausted before first run completed.',
  )
  const now = new Date()
  return {
    task,
    index,
    runs: progress.runs,
    bestScore: best?.score ?? fallback.primaryScore,
    bestEvaluation: best?.evaluation ?? fallback,
    success: progress.success,
    llmUsage: progress.usage,
    stopReason,
    scope: ts.write,
    readOnly: ts.readOnly,
    error: errorText,
    startedAt: now,
    endedAt: now,
    offered,
    ...(notes.length > 0 ? { attackerNotes: notes } : {}),
  }
}
