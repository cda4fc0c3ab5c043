/** Several threat models as one sweep (the reference's `run_all`). */
import { Semaphore } from './async'
import type { Controller } from './controller'
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
 */
export async function runAll(controllers: readonly Controller[], options: RunAllOptions = {}): Promise<ThreatModelResult[]> {
  if (controllers.length === 0) return []
  const limit = options.concurrency == null ? controllers.length : Math.max(1, options.concurrency)
  const semaphore = new Semaphore(limit)
  const signal = options.signal ?? new AbortController().signal
  return Promise.all(controllers.map(async (controller) => {
    let release: () => void
    try {
      release = await semaphore.acquire(signal)
    } catch {
      return notStarted(controller)
    }
    try {
      return await controller.run({ reporter: options.reporter, signal })
    } finally {
      release()
    }
  }))
}

function notStarted(controller: Controller): ThreatModelResult {
  const now = new Date()
  const o = controller.options
  return {
    scope: controller.scopeMode.namingScope, readOnly: controller.scopeMode.namingReadOnly, llmConfig: o.llmConfig ? { model: o.llmConfig.model } : null, taskResults: [],
    taskCostCapUsd: o.taskCostCapUsd ?? null, skippedTasks: [], scopeLabel: controller.scopeMode.scopeLabel, startedAt: now, endedAt: now,
    cancelled: true, resultsDir: null,
  }
}
