/**
 * "Find the weakest winning attacker" in the browser: the frontier search of
 * src/core/frontier driven one threat model at a time through the console's
 * own runner (so each evaluation is a normal run: live dashboard, results in
 * IndexedDB, openable in the viewer). What the page shows lives in a small
 * store: progress, the frontier so far, and the experiment behind each point.
 */
import { create } from 'zustand'
import { FrontierSession, type Seed } from '../../../core/frontier'
import { coverKey, describeModel, GrantLattice, ThreatModelLattice, type Cover, type SearchSpace } from '../../../core/lattice'
import type { Forest, SecurityDomain } from '../../../core/tags'
import { startRun } from '../runner/runner'
import { invalidateBrowserResults } from '../../../queries/queryClient'
import { useSetup } from '../setup/setupStore'
import { singleRequest } from '../run/startRequest'

export interface FrontierPoint {
  readonly index: string
  readonly scope: readonly string[]
  /** Tags it only reads (none in the scope-only space). */
  readonly readOnly: readonly string[]
  readonly words: string
  /** The experiment folder of the run that decided it. */
  readonly dir: string | null
}

export interface FrontierState {
  readonly state: 'idle' | 'running' | 'done' | 'stopped' | 'failed'
  /** The space searched: with read-only grants (GrantLattice) or the distinct scope-only threat models. */
  readonly readOnly: boolean
  readonly total: number
  readonly evaluated: number
  readonly inferred: number | null
  readonly undecided: number | null
  readonly minimalWins: readonly FrontierPoint[]
  readonly maximalLosses: readonly FrontierPoint[]
  readonly contradictions: number
  readonly error: string | null
}

const IDLE: FrontierState = {
  state: 'idle', readOnly: false, total: 0, evaluated: 0, inferred: null, undecided: null, minimalWins: [], maximalLosses: [], contradictions: 0, error: null,
}

export const useFrontier = create<FrontierState>(() => IDLE)

/** Counting decided threat models is a scan of the lattice: live only up to this size. */
const LIVE_COUNTS_UP_TO = 100_000n

let stopRequested = false

export function stopFrontier(): void {
  stopRequested = true
}

/**
 * One evaluation: a single run of the claim with this threat model (its read-only grants go to the Controller,
 * so the run's manifest records them as superred does), awaited; null when it did not finish.
 */
function evaluateOnce(forest: Forest, model: { scope: string[]; readOnly: string[] }): Promise<{ dir: string; tasks: boolean[] } | { error: string } | null> {
  return new Promise((resolve) => {
    const request = {
      ...singleRequest(forest, model),
      settled: (run: { controllers: readonly { label: string }[] }, results: readonly { taskResults: readonly { index: number; success: boolean }[] }[] | null) => {
        if (results === null) return resolve(null)
        const n = useSetup.getState().claim.tasks.length
        resolve({ dir: run.controllers[0].label, tasks: Array.from({ length: n }, (_, i) => results[0].taskResults.find((t) => t.index === i + 1)?.success === true) })
      },
    }
    void startRun(request, invalidateBrowserResults).then((o) => {
      if (o.error !== null) resolve({ error: o.error })
    })
  })
}

/**
 * The search over the distinct scope-only threat models (the designer's #N, what the sweep runs), or with
 * `readOnly` over every threat model, per tag none / read only / read & write (GrantLattice: the same space as
 * `redscope frontier --read-only`, opt-in there too since it squares the space).
 */
export async function findWeakestAttacker(forest: Forest, domain: SecurityDomain, seed: Seed = 'low', readOnly = false): Promise<void> {
  if (useFrontier.getState().state === 'running') return
  stopRequested = false
  const base = new ThreatModelLattice(domain)
  const lattice: SearchSpace = readOnly ? new GrantLattice(base) : base
  const taskCount = useSetup.getState().claim.tasks.length
  const session = new FrontierSession(lattice, { taskCount, seed })
  const dirs = new Map<string, string>()
  const live = lattice.total <= LIVE_COUNTS_UP_TO
  const point = (c: Cover): FrontierPoint => {
    const m = lattice.modelOf(c)
    return { index: lattice.label(c), scope: m.scope, readOnly: m.readOnly, words: describeModel(m), dir: dirs.get(coverKey(c)) ?? null }
  }
  const publish = (state: FrontierState['state'], error: string | null = null) => {
    const answer = session.answer(state === 'stopped')
    const counts = live || state === 'done' ? session.counts('claim') : null
    useFrontier.setState({
      state, error, readOnly, total: Number(lattice.total), evaluated: answer.evaluations.length,
      inferred: counts?.inferred ?? null, undecided: counts?.undecided ?? null,
      minimalWins: answer.claim.minimalWins.map(point), maximalLosses: answer.claim.maximalLosses.map(point),
      contradictions: answer.contradictions.length,
    })
  }
  publish('running')
  try {
    for (let c = session.next(); c !== null; c = session.next()) {
      if (stopRequested) return publish('stopped')
      const m = lattice.modelOf(c)
      const outcome = await evaluateOnce(forest, { scope: [...m.scope], readOnly: [...m.readOnly] })
      if (outcome === null) return publish('stopped')
      if ('error' in outcome) return publish('failed', outcome.error)
      dirs.set(coverKey(c), outcome.dir)
      session.submit({ runs: [outcome.tasks] })
      publish('running')
    }
    publish('done')
  } catch (e) {
    publish('failed', (e as Error).message)
  }
}
