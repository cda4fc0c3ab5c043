/**
 * One task end to end (the reference's `_execute_task`): resolve the scope,
 * create the target, run the loop under the optional wall-clock cap, and
 * always tear the target down. Every failure becomes this task's result.
 */
import { abortable, finishOrAbandon, whenAborted } from './async'
import { describeError, TaskCancelled } from './errors'
import type { TaskResult } from './outcomes'
import { emptyTaskResult, isCancellation, runTask, TaskProgress, type TaskEnv } from './runTask'
import { resolveTaskScope, type ScopeSpec, type TaskScope } from './scopeResolution'
import { NotApplicable, type Target, type TargetFactory, type Task } from './target'

export interface ExecuteEnv extends TaskEnv {
  readonly scope: ScopeSpec
  readonly readOnly: ScopeSpec
  readonly targetFactory: TargetFactory
  readonly taskTimeCapS: number | null
  /** Called with each fresh target (the session records the forest from the first). */
  readonly onTargetCreated: (target: Target) => void | Promise<void>
}

export type TaskOutcome = { readonly kind: 'result'; readonly result: TaskResult } | { readonly kind: 'skipped'; readonly reason: string }

/** Throws TaskCancelled('cancelled') only when the caller's signal aborted; everything else is an outcome. */
export async function executeTask(env: ExecuteEnv, index: number, task: Task, outer: AbortSignal): Promise<TaskOutcome> {
  let ts: TaskScope
  try {
    ts = resolveTaskScope(env.scope, env.readOnly, task)
  } catch (error) {
    if (error instanceof NotApplicable) return { kind: 'skipped', reason: error.message }
    env.diagnostic('error', `scope resolver failed, recording as error: ${describeError(error)}`)
    return {
      kind: 'result',
      result: emptyTaskResult(task, index, { stopReason: 'error', rationale: 'Scope resolver failed before run loop started.', error }),
    }
  }

  // The task's own signal: the caller's cancellation or the wall-clock cap, whichever comes first. Linked through the
  // caller's signal's one shared listener: runAll hands one signal to every running threat model, and a listener a
  // task made Node warn of a leak past 10 (8 threat models of 4 tasks).
  const control = new AbortController()
  const stopWatching = whenAborted(outer, () => control.abort(new TaskCancelled('cancelled')))
  const timer =
    env.taskTimeCapS === null ? undefined : setTimeout(() => control.abort(new TaskCancelled('timeout')), env.taskTimeCapS * 1000)
  const signal = control.signal
  const unlink = () => {
    if (timer !== undefined) clearTimeout(timer)
    stopWatching()
  }

  let target: Target
  try {
    target = await abortable(
      Promise.resolve().then(() => env.targetFactory.create()),
      signal,
    )
    await env.onTargetCreated(target)
  } catch (error) {
    unlink()
    if (isCancellation(error) && error.why === 'cancelled') throw error
    if (!isCancellation(error)) env.diagnostic('error', `targetFactory.create() failed, recording as error: ${describeError(error)}`)
    return {
      kind: 'result',
      result: emptyTaskResult(task, index, {
        stopReason: isCancellation(error) ? 'timeout' : 'error',
        rationale: isCancellation(error) ? capRationale(env) : 'Unexpected error before run loop started.',
        error: isCancellation(error) ? undefined : error,
        scope: ts.write,
        readOnly: ts.readOnly,
      }),
    }
  }

  const progress = new TaskProgress()
  try {
    return { kind: 'result', result: await runTask(env, task, index, target, ts, progress, signal) }
  } catch (error) {
    if (isCancellation(error)) {
      if (error.why === 'cancelled') throw error
      env.diagnostic('warning', `exceeded task_time_cap_s=${env.taskTimeCapS}, cancelled after ${progress.runs.length} run(s)`)
      return { kind: 'result', result: truncatedResult(env, task, index, ts, progress) }
    }
    if (error instanceof NotApplicable) return { kind: 'skipped', reason: error.message }
    env.diagnostic('error', `unexpected error before run loop, recording as error: ${describeError(error)}`)
    return {
      kind: 'result',
      result: emptyTaskResult(task, index, {
        stopReason: 'error',
        rationale: 'Unexpected error before run loop started.',
        error,
        usage: progress.usage,
        scope: ts.write,
        readOnly: ts.readOnly,
        offered: progress.offered,
      }),
    }
  } finally {
    unlink()
    // Unbounded after a normal end (cutting a slow teardown short leaks what
    // it releases); bounded by the grace once a cancellation is in flight.
    const torn = await finishOrAbandon(() => target.teardown(), signal, env.graceMs)
    if (!torn.ok)
      env.diagnostic(
        'error',
        `target.teardown post-task ${'error' in torn ? `failed: ${describeError(torn.error)}` : 'abandoned after the cleanup budget'}`,
      )
  }
}

function capRationale(env: ExecuteEnv): string {
  return `Task exceeded task_time_cap_s=${pyNumber(env.taskTimeCapS ?? 0)}s and was cancelled.`
}

/** Python's str() of a float cap (`2` prints as `2.0`). */
function pyNumber(value: number): string {
  return Number.isInteger(value) ? value.toFixed(1) : String(value)
}

/** The cap expired: keep every judged run; with none, a zero result naming the cap. */
function truncatedResult(env: ExecuteEnv, task: Task, index: number, ts: TaskScope, progress: TaskProgress): TaskResult {
  const best = progress.best
  const empty = emptyTaskResult(task, index, {
    stopReason: 'timeout',
    rationale: capRationale(env),
    usage: progress.usage,
    scope: ts.write,
    readOnly: ts.readOnly,
    offered: progress.offered,
  })
  return best === null
    ? { ...empty, runs: [...progress.runs] }
    : { ...empty, runs: [...progress.runs], bestScore: best.score, bestEvaluation: best.evaluation, success: progress.success }
}
