/**
 * How the last start of a single run went (connecting, or why it did not
 * start), shared by every button that starts one: the Run page's own, and
 * the landing's "Run the demo attack", which starts a run before the page shows.
 */
import { create } from 'zustand'
import type { RunRequest, StartOutcome } from '../runner/runner'
import { startRun } from '../runner/runner'
import { invalidateBrowserResults } from '../../../queries/queryClient'
import { applyDemoClaim } from '../setup/demoClaim'
import { applyServedClaim } from '../setup/servedClaim'

interface StartState {
  readonly starting: boolean
  readonly outcome: StartOutcome | null
}

export const useStartOutcome = create<StartState>()(() => ({ starting: false, outcome: null }))

/**
 * Starts `request` (built lazily, after the demo's own claim is applied, so a setup problem becomes
 * the outcome's error) and records how it went.
 */
export async function startSingle(request: () => RunRequest): Promise<StartOutcome> {
  useStartOutcome.setState({ starting: true, outcome: null })
  let outcome: StartOutcome
  try {
    await applyDemoClaim()
    await applyServedClaim()
    outcome = await startRun(request(), invalidateBrowserResults)
  } catch (e) {
    outcome = { error: (e as Error).message, notes: [] }
  }
  useStartOutcome.setState({ starting: false, outcome })
  return outcome
}

/** A start that failed before it reached the engine (the demo's claim could not be read...). */
export function startFailed(error: string): void {
  useStartOutcome.setState({ starting: false, outcome: { error, notes: [] } })
}
