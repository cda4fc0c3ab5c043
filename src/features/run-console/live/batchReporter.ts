/**
 * The engine's ProgressReporter as a queue of live events, flushed at most
 * once per animation frame and 10 times a second: a sweep that finishes
 * hundreds of runs a second costs the page one store update (and one
 * render) per flush.
 */
import {
  isResultsWriteFailure,
  type EvaluationResult,
  type ProgressReporter,
  type RunResult,
  type Score,
  type TaskResult,
} from '../../../core/engine'
import { taskStatus } from '../../../core/results'
import type { FinishedTask, LiveEvent, ScoreLine, TaskEvaluation } from './liveTypes'

export type Schedule = (flush: () => void) => void

/** Fewer updates than frames: a sweep's dashboard at 10 per second reads as live and leaves the page time to work. */
export const MIN_FLUSH_INTERVAL_MS = 100

/**
 * The next animation frame at least `minMs` after the previous flush; a timer
 * as well, since hidden tabs get no frames (the run goes on, and the view is
 * current when the user comes back). Node tests have no frames at all.
 */
export function frameSchedule(minMs = MIN_FLUSH_INTERVAL_MS): Schedule {
  let last = 0
  return (flush) => {
    let done = false
    const once = () => {
      if (done) return
      done = true
      last = Date.now()
      flush()
    }
    const wait = Math.max(0, last + minMs - Date.now())
    setTimeout(() => (typeof requestAnimationFrame === 'function' ? requestAnimationFrame(once) : once()), wait)
    setTimeout(once, wait + 250)
  }
}

export function firstLine(text: string, max = 300): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? text
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}

const scoreLine = (key: string, s: Score): ScoreLine => ({ key, name: s.name, value: s.value, domain: s.securityDomain?.name ?? null })

/** Plain data of an evaluation (no tag objects in the store): sub-scores in the evaluator's order. */
export function taskEvaluation(e: EvaluationResult): TaskEvaluation {
  return {
    primary: scoreLine('primary', e.primaryScore),
    subScores: Object.entries(e.subScores).map(([k, s]) => scoreLine(k, s)),
    rationale: e.rationale,
  }
}

/** The last value the attacker injected in a run, as one clipped line; null when it injected nothing. */
export function lastInjection(run: RunResult | undefined): string | null {
  if (run === undefined) return null
  for (let i = run.trajectory.length - 1; i >= 0; i--) {
    const item = run.trajectory[i]
    if (item.type === 'ControllableInjection') return firstLine(item.value.replace(/\s+/g, ' '), 200)
  }
  return null
}

export function finishedTask(r: TaskResult): FinishedTask {
  const measured = r.runs.filter((run) => run.evaluated).length
  const runs = r.nRuns ?? r.runs.length
  const echoed = r.runs.filter((run) => run.echo)
  return {
    index: r.index,
    goal: r.task.goal.description,
    stopReason: r.stopReason,
    status: taskStatus(r.success, r.stopReason, r.nRuns ?? measured),
    success: r.success,
    best: r.bestScore.value,
    // Whole up to a long paragraph: an explained failure (a CORS refusal and how to allow it) is cut at 300.
    runs,
    cost: r.llmUsage.cost,
    error: r.error === null ? null : firstLine(r.error, 2000),
    kept: r.nRuns !== undefined,
    evaluation: measured > 0 ? taskEvaluation(r.bestEvaluation) : null,
    said: lastInjection(r.runs.at(-1)),
    ...(echoed.length > 0 ? { echoed: echoed.length, echoesCounted: echoed.some((run) => run.echo!.counted) } : {}),
  }
}

export interface BatchReporter {
  readonly reporter: ProgressReporter
  /** Applies whatever is queued now (at the end of a run). */
  flush(): void
}

export function batchReporter(
  apply: (events: LiveEvent[]) => void,
  schedule: Schedule = frameSchedule(),
  now: () => number = Date.now,
  cancelled?: () => boolean,
): BatchReporter {
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
    turn: (info, index, _runNumber, turn) => push({ t: 'turn', key: info.key, index, turn }),
    runComplete: (info, index, run: RunResult) =>
      push({
        t: 'run',
        key: info.key,
        index,
        score: run.evaluated ? run.evaluation.primaryScore.value : null,
        cost: run.llmUsage.cost,
        said: lastInjection(run),
      }),
    taskComplete: (info, result) => push({ t: 'taskDone', key: info.key, task: finishedTask(result) }),
    taskSkipped: (info, index, goal, reason) =>
      push({
        t: 'taskDone',
        key: info.key,
        task: {
          index,
          goal,
          stopReason: 'skipped',
          status: 'skipped',
          success: false,
          best: 0,
          runs: 0,
          cost: 0,
          error: firstLine(reason),
          kept: false,
          evaluation: null,
          said: null,
        },
      }),
    threatModelEnd: (info, result) => push({ t: 'tmEnd', key: info.key, cancelled: result.cancelled, resultsDir: result.resultsDir }),
    diagnostic: (info, level, message, taskIndex) => {
      // Work abandoned because the user cancelled says so in every lane; the session's state already does.
      if (cancelled?.()) return
      // A task's own errors are on its row (TaskResult.error); warnings (a time cap hit...) are worth a line,
      // and so is a result that could not be saved (storage full): the task's row says it went fine.
      const unsaved = isResultsWriteFailure(message)
      if (taskIndex !== undefined && level === 'error' && !unsaved) return
      push({
        t: 'problem',
        key: info?.key ?? null,
        level,
        message: unsaved && taskIndex !== undefined ? `Not saved (task ${taskIndex}): ${firstLine(message)}` : firstLine(message),
      })
    },
  }
  return { reporter, flush }
}
