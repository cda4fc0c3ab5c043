/** Several threat models as one sweep (the reference's `run_all`). */
import { ExperimentsIndex } from '../results/experimentsIndex'
import type { Storage } from '../results/storage'
import { Semaphore } from './async'
import type { Controller } from './controller'
import { describeError } from './errors'
import type { ThreatModelResult } from './outcomes'
import type { ProgressReporter } from './reporter'

export interface RunAllOptions {
  /** Threat models running at once (default: all). Each still runs its own tasks concurrently. */
  readonly concurrency?: number | null
  /** One reporter for the whole sweep; events carry each threat model's key. */
  readonly reporter?: ProgressReporter
  readonly signal?: AbortSignal
}

/**
 * Runs controllers behind a semaphore and returns their results in input
 * order. A cancelled sweep still returns a (cancelled) result for every
 * controller: those that never started have no tasks.
 *
 * Each experiment queues its experiments.json row instead of waiting for
 * it, and the sweep writes the rows still queued before it returns: a slot
 * goes on to the next threat model at once, and the index is written a
 * bounded number of times instead of once per experiment.
 */
export async function runAll(controllers: readonly Controller[], options: RunAllOptions = {}): Promise<ThreatModelResult[]> {
  if (controllers.length === 0) return []
  const limit = options.concurrency == null ? controllers.length : Math.max(1, options.concurrency)
  const semaphore = new Semaphore(limit)
  const signal = options.signal ?? new AbortController().signal
  try {
    return await Promise.all(
      controllers.map(async (controller) => {
        let release: () => void
        try {
          release = await semaphore.acquire(signal)
        } catch {
          return notStarted(controller)
        }
        try {
          return await controller.run({ reporter: options.reporter, signal, queueIndexRow: true })
        } finally {
          release()
        }
      }),
    )
  } finally {
    await settleIndexes(controllers, options.reporter)
  }
}

/** Writes the queued index rows; a failure is reported as the Controller reports a failed finalize, and the sweep goes on. */
async function settleIndexes(controllers: readonly Controller[], reporter: ProgressReporter | undefined): Promise<void> {
  const byStorage = new Map<Storage, Controller>()
  for (const c of controllers) if (c.options.storage && !byStorage.has(c.options.storage)) byStorage.set(c.options.storage, c)
  for (const [storage, controller] of byStorage) {
    try {
      await ExperimentsIndex.settleAll(storage)
    } catch (error) {
      try {
        reporter?.diagnostic?.(controller.info(), 'error', `failed to finalize results (continuing): ${describeError(error)}`)
      } catch {
        // A failing diagnostic sink must not turn a diagnostic into a failure.
      }
    }
  }
}

function notStarted(controller: Controller): ThreatModelResult {
  const now = new Date()
  const o = controller.options
  return {
    scope: controller.scopeMode.namingScope,
    readOnly: controller.scopeMode.namingReadOnly,
    llmConfig: o.llmConfig ? { model: o.llmConfig.model } : null,
    taskResults: [],
    taskCostCapUsd: o.taskCostCapUsd ?? null,
    skippedTasks: [],
    scopeLabel: controller.scopeMode.scopeLabel,
    startedAt: now,
    endedAt: now,
    cancelled: true,
    resultsDir: null,
  }
}
