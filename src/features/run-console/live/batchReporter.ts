/**
 * The engine's ProgressReporter as a queue of live events, flushed at most
 * once per animation frame: a sweep that finishes hundreds of runs a second
 * costs the page one store update (and one render) per frame.
 */
import type { ProgressReporter, RunResult, TaskResult } from '../../../core/engine'
import { taskStatus } from '../../../core/results'
import type { FinishedTask, LiveEvent } from './liveTypes'

export type Schedule = (flush: () => void) => void

/** requestAnimationFrame in a page, a macrotask elsewhere (Node tests, a hidden tab still makes progress). */
export const frameSchedule: Schedule = (flush) => {
  let done = false
  const once = () => {
    if (done) return
    done = true
    flush()
  }
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(once)
  // Hidden tabs get no frames: a timer keeps the view current when the user comes back.
  setTimeout(once, 250)
}

export function firstLine(text: string, max = 300): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? text
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}

export function finishedTask(r: TaskResult): FinishedTask {
  const measured = r.runs.filter((run) => run.evaluated).length
  const runs = r.nRuns ?? r.runs.length
  return {
    index: r.index, goal: r.task.goal.description, stopReason: r.stopReason,
    status: taskStatus(r.success, r.stopReason, r.nRuns ?? measured), success: r.success, best: r.bestScore.value,
    runs, cost: r.llmUsage.cost, error: r.error === null ? null : firstLine(r.error), kept: r.nRuns !== undefined,
  }
}

export interface BatchReporter {
  readonly reporter: ProgressReporter
  /** Applies whatever is queued now (at the end of a run). */
  flush(): void
}

export function batchReporter(apply: (events: LiveEvent[]) => void, schedule: Schedule = frameSchedule, now: () => number = Date.now,
  cancelled?: () => boolean): BatchReporter {
  let queue: LiveEvent[] = []
  let scheduled = false
  const flush = () => {
    scheduled = false
    if (queue.length === 0) return
    const batch = queue
    queue = []
    apply(batch)
  }
  const push = (e: LiveEvent) => {
    queue.push(e)
    if (!scheduled) {
      scheduled = true
      schedule(flush)
    }
  }
  const reporter: ProgressReporter = {
    threatModelStart: (info) => push({ t: 'tmStart', key: info.key }),
    taskStart: (info, index, goal) => push({ t: 'taskStart', key: info.key, index, goal, at: now() }),
    runComplete: (info, index, run: RunResult) =>
      push({ t: 'run', key: info.key, index, score: run.evaluated ? run.evaluation.primaryScore.value : null, cost: run.llmUsage.cost }),
    taskComplete: (info, result) => push({ t: 'taskDone', key: info.key, task: finishedTask(result) }),
    taskSkipped: (info, index, goal, reason) => push({
      t: 'taskDone', key: info.key,
      task: { index, goal, stopReason: 'skipped', status: 'skipped', success: false, best: 0, runs: 0, cost: 0, error: firstLine(reason), kept: false },
    }),
    threatModelEnd: (info, result) => push({ t: 'tmEnd', key: info.key, cancelled: result.cancelled, resultsDir: result.resultsDir }),
    diagnostic: (info, level, message, taskIndex) => {
      // Work abandoned because the user cancelled says so in every lane; the session's state already does.
      if (cancelled?.()) return
      // A task's own errors are on its row (TaskResult.error); warnings (a time cap hit...) are worth a line.
      if (taskIndex !== undefined && level === 'error') return
      push({ t: 'problem', key: info?.key ?? null, level, message: firstLine(message) })
    },
  }
  return { reporter, flush }
}
