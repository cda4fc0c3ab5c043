/**
 * Owns the one run in progress: builds it, starts runAll under a concurrency
 * cap with the batched reporter feeding the live store, and cancels it with
 * an AbortSignal (finished tasks stay written; the engine leaves an
 * interrupted experiment resumable). Nothing here renders; the console calls
 * `startRun` and `cancelRun` from its buttons.
 */
import { describeError, runAll, type ThreatModelResult } from '../../../core/engine'
import { batchReporter } from '../live/batchReporter'
import { newSession } from '../live/liveReducer'
import { liveActions, useLiveStore } from '../live/liveStore'
import { SetupError } from '../setup/numbers'
import type { BuiltRun } from './buildRun'
import { clearHuman } from './humanBridge'
import { saveSweep, type SweepRecord } from '../../../lib/sweepRecords'

export interface RunRequest {
  readonly kind: 'single' | 'sweep'
  readonly title: string
  /** Threat models at once (a single run has one). */
  readonly concurrency: number
  readonly build: (signal: AbortSignal) => Promise<BuiltRun>
  /** For sweeps: the record to save once the experiment folders are known. */
  readonly sweep?: (run: BuiltRun) => SweepRecord
  /** Called once the run is over: its results, or null when it failed or was cancelled (the frontier search waits on it). */
  readonly settled?: (run: BuiltRun, results: readonly ThreatModelResult[] | null) => void
}

export interface StartOutcome {
  /** Why the run did not start (a setup problem), or null. */
  readonly error: string | null
  readonly notes: readonly string[]
}

let current: AbortController | null = null

export const isRunning = () => current !== null

/** `onResultsChanged` runs when the stored results changed: a sweep's record saved, the run ended. */
export async function startRun(request: RunRequest, onResultsChanged: () => void): Promise<StartOutcome> {
  if (current !== null) return { error: 'A run is already in progress: cancel it or wait for it to end.', notes: [] }
  const abort = new AbortController()
  current = abort
  let built: BuiltRun
  try {
    built = await request.build(abort.signal)
  } catch (e) {
    current = null
    return { error: e instanceof SetupError ? e.message : `Could not start: ${describeError(e)}`, notes: [] }
  }
  const record = request.sweep?.(built) ?? null
  if (record !== null) {
    try {
      await saveSweep(record)
    } catch (e) {
      current = null
      return { error: `Could not save the sweep in this browser: ${describeError(e)}`, notes: [] }
    }
    onResultsChanged()
  }
  const actions = liveActions()
  actions.begin(
    newSession({
      id: `run-${Date.now().toString(36)}`,
      kind: request.kind,
      title: request.title,
      lanes: built.controllers.map((c) => c.info()),
      sweepId: record?.id ?? null,
      now: Date.now(),
      limits: built.limits,
    }),
  )
  void (async () => {
    let outcome: readonly ThreatModelResult[] | null = null
    const { reporter, flush } = batchReporter(
      (events) => actions.apply(events),
      undefined,
      undefined,
      () => abort.signal.aborted,
    )
    try {
      const results = await runAll(built.controllers, { concurrency: request.concurrency, reporter, signal: abort.signal })
      flush()
      const cancelled = abort.signal.aborted || results.some((r) => r.cancelled)
      actions.setState(cancelled ? 'cancelled' : 'finished')
      outcome = cancelled ? null : results
    } catch (e) {
      flush()
      actions.setState('failed', `The run stopped: ${describeError(e)}`)
    } finally {
      clearHuman(new Error('the run ended'))
      current = null
      onResultsChanged()
      request.settled?.(built, outcome)
    }
  })()
  return { error: null, notes: built.notes }
}

export function cancelRun(): void {
  if (current === null || current.signal.aborted) return
  if (useLiveStore.getState().session?.state === 'running') liveActions().setState('cancelling')
  const reason = new Error('cancelled by the user')
  current.abort(reason)
  clearHuman(reason)
}
