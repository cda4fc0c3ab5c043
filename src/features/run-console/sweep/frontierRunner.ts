/**
 * "Find the weakest winning attacker" in the browser: the frontier search of
 * src/core/frontier driven one threat model at a time through the console's
 * own runner (so each evaluation is a normal run: live dashboard, results in
 * IndexedDB, openable in the viewer). What the page shows lives in a small
 * store: progress, the frontier so far, and the experiment behind each point.
 */
import { create } from 'zustand'
import { FrontierSession, tallyOf, type Seed, type Tally } from '../../../core/frontier'
import { coverKey, describeModel, GrantLattice, ThreatModelLattice, type Cover, type SearchSpace } from '../../../core/lattice'
import type { Forest, SecurityDomain } from '../../../core/tags'
import { startRun } from '../runner/runner'
import { invalidateBrowserResults } from '../../../queries/queryClient'
import { useSetup } from '../setup/setupStore'
import { singleRequest } from '../run/startRequest'
import type { KnownFrontier } from '../../../components/sweep/SweepAnalysis'

export interface FrontierPoint {
  readonly index: string
  readonly scope: readonly string[]
  /** Tags it only reads (none in the scope-only space). */
  readonly readOnly: readonly string[]
  readonly words: string
  /** The experiment folder of the run that decided it. */
  readonly dir: string | null
  /** The runs of the claim that decided it, and how many the attacker won; null if it was not run itself. */
  readonly tally: Tally | null
}

/** What a search ran with, as a sweep record names it: a sweep shows this frontier only when they match. */
export interface FrontierBasis {
  readonly forest: Forest
  /** The target's label (its manifest name), known once the first run is built. */
  readonly target: string | null
  readonly claim: string
  readonly attacker: string
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
  readonly basis: FrontierBasis | null
}

const IDLE: FrontierState = {
  state: 'idle', readOnly: false, total: 0, evaluated: 0, inferred: null, undecided: null, minimalWins: [], maximalLosses: [], contradictions: 0, error: null,
  basis: null,
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
function evaluateOnce(forest: Forest, model: { scope: string[]; readOnly: string[] }): Promise<{ dir: string; target: string; attacker: string; tasks: boolean[] } | { error: string } | null> {
  return new Promise((resolve) => {
    const request = {
      ...singleRequest(forest, model),
      settled: (run: { controllers: readonly { label: string; meta: (at: null) => { attacker: string } }[]; target: { label: string } }, results: readonly { taskResults: readonly { index: number; success: boolean }[] }[] | null) => {
        if (results === null) return resolve(null)
        const n = useSetup.getState().claim.tasks.length
        // The attacker as the sweep record names it (its label, derived from its configuration), so both can be matched.
        resolve({ dir: run.controllers[0].label, target: run.target.label, attacker: run.controllers[0].meta(null).attacker, tasks: Array.from({ length: n }, (_, i) => results[0].taskResults.find((t) => t.index === i + 1)?.success === true) })
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
  const tallies = new Map<string, Tally>()
  const live = lattice.total <= LIVE_COUNTS_UP_TO
  const setup = useSetup.getState()
  let basis: FrontierBasis = { forest, target: null, claim: setup.claim.name, attacker: setup.attacker.kind }
  const point = (c: Cover): FrontierPoint => {
    const m = lattice.modelOf(c)
    const key = coverKey(c)
    return { index: lattice.label(c), scope: m.scope, readOnly: m.readOnly, words: describeModel(m), dir: dirs.get(key) ?? null, tally: tallies.get(key) ?? null }
  }
  const publish = (state: FrontierState['state'], error: string | null = null) => {
    const answer = session.answer(state === 'stopped')
    const counts = live || state === 'done' ? session.counts('claim') : null
    useFrontier.setState({
      state, error, readOnly, total: Number(lattice.total), evaluated: answer.evaluations.length,
      inferred: counts?.inferred ?? null, undecided: counts?.undecided ?? null,
      minimalWins: answer.claim.minimalWins.map(point), maximalLosses: answer.claim.maximalLosses.map(point),
      contradictions: answer.contradictions.length, basis,
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
      basis = { ...basis, target: outcome.target, attacker: outcome.attacker }
      const observation = { runs: [outcome.tasks] }
      tallies.set(coverKey(c), tallyOf(observation, 'claim'))
      session.submit(observation)
      publish('running')
    }
    publish('done')
  } catch (e) {
    publish('failed', (e as Error).message)
  }
}

const sameForest = (a: Forest, b: Forest) =>
  a.tags.length === b.tags.length && a.tags.every((t, i) => t.name === b.tags[i].name && t.parent === b.tags[i].parent)

/**
 * This page's finished search, when it answers the same question as a sweep (same forest, target, claim and
 * attacker): the sweep then paints the frontier's view. A stopped or failed search is no frontier.
 */
export function frontierForSweep(f: FrontierState, sweep: { forest: Forest; target: string; claim: string; attacker: string }): KnownFrontier | null {
  const b = f.basis
  if (f.state !== 'done' || b === null || b.target !== sweep.target || b.claim !== sweep.claim || b.attacker !== sweep.attacker) return null
  if (!sameForest(b.forest, sweep.forest)) return null
  return { minimalWins: f.minimalWins, source: `The frontier found on this page (${f.evaluated} threat models run)` }
}
