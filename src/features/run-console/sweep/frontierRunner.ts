/**
 * "Find the weakest winning attacker" in the browser: the frontier search of
 * src/core/frontier driven through the console's own runner (so each run is
 * a normal run: live dashboard, results in IndexedDB, openable in the
 * viewer). What the page shows lives in a small store: progress, the frontier
 * so far, and the experiments behind each point.
 *
 * With a sequential test (a noisy target), each evaluated threat model is run
 * in batches, up to "Threat models at once" runs side by side, until the test
 * decides it or its repeats run out (docs/frontier.md); run k ≥ 2 is its own
 * experiment, labelled `<attacker label>-repeat-k` (a derived label never ends so).
 */
import { create } from 'zustand'
import {
  answerWords,
  FrontierSession,
  frontierFile,
  outcomesOf,
  type FrontierFile,
  sequenceInterval,
  tallyOf,
  type Evaluation,
  type Seed,
  type SequentialTest,
  type Tally,
} from '../../../core/frontier'
import { coverKey, describeModel, GrantLattice, ThreatModelLattice, type Cover, type SearchSpace } from '../../../core/lattice'
import type { Forest, SecurityDomain } from '../../../core/tags'
import { startRun, type RunRequest } from '../runner/runner'
import { invalidateBrowserResults } from '../../../queries/queryClient'
import { numberOrThrow, RULES } from '../setup/numbers'
import { useSetup } from '../setup/setupStore'
import { repeatsRequest, singleRequest } from '../run/startRequest'
import type { KnownFrontier } from '../../../components/sweep/SweepAnalysis'
import { saveFrontier } from '../../../lib/frontierRecords'

/** What a point's own runs say, with a sequential test: its runs, wins, the confidence sequence's interval and the decision. */
export interface PointTally {
  readonly runs: number
  readonly wins: number
  readonly interval: readonly [number, number]
  readonly decision: 'win' | 'lose' | 'undecided'
}

export interface FrontierPoint {
  readonly index: string
  readonly scope: readonly string[]
  /** Tags it only reads (none in the scope-only space). */
  readonly readOnly: readonly string[]
  readonly words: string
  /** The experiment folder of the (first) run that decided it. */
  readonly dir: string | null
  /** Every run's experiment folder, in order. */
  readonly dirs: readonly string[]
  /** The runs of the claim that decided it, and how many the attacker won; null if it was not run itself. */
  readonly tally: Tally | null
  /** With a sequential test: what its runs say (decision and the confidence sequence's interval). */
  readonly tested: PointTally | null
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
  /** The sequential test of this search, null without one. */
  readonly test: SequentialTest | null
  /** With a test: the evaluated threat models it left undecided, and every evaluated one (decision, interval). */
  readonly undecidedPoints: readonly FrontierPoint[]
  readonly evaluatedPoints: readonly FrontierPoint[]
  /** Runs of the claim made so far. */
  readonly runs: number
  /** With a test: decisions made, and the probability that all are right together (a union bound). */
  readonly guarantee: { readonly decisions: number; readonly allRightAtLeast: number } | null
  /** The id of its record in this browser (lib/frontierRecords.ts) once kept: the Results tab lists it. */
  readonly keptId: string | null
  /** What is kept: the search as frontier.json, for the sweep's report. */
  readonly kept: FrontierFile | null
}

const IDLE: FrontierState = {
  state: 'idle',
  readOnly: false,
  total: 0,
  evaluated: 0,
  inferred: null,
  undecided: null,
  minimalWins: [],
  maximalLosses: [],
  contradictions: 0,
  error: null,
  basis: null,
  test: null,
  undecidedPoints: [],
  evaluatedPoints: [],
  runs: 0,
  guarantee: null,
  keptId: null,
  kept: null,
}

export const useFrontier = create<FrontierState>(() => IDLE)

/** Counting decided threat models is a scan of the lattice: live only up to this size. */
const LIVE_COUNTS_UP_TO = 100_000n

let stopRequested = false

export function stopFrontier(): void {
  stopRequested = true
}

type Batch = { dirs: string[]; target: string; attacker: string; runs: boolean[][] } | { error: string } | null

/**
 * One batch: runs of the claim with this threat model (its read-only grants go to the Controller, so each run's
 * manifest records them as superred does), side by side, awaited; null when it did not finish.
 */
function evaluateBatch(request: RunRequest): Promise<Batch> {
  return new Promise((resolve) => {
    const watched: RunRequest = {
      ...request,
      settled: (run, results) => {
        if (results === null) return resolve(null)
        const n = useSetup.getState().claim.tasks.length
        resolve({
          dirs: run.controllers.map((c) => c.label),
          target: run.target.label,
          // The attacker as the sweep record names it (its label, derived from its configuration), so both can be
          // matched: the batch's first run's, which is run 1 (no -repeat-k) in a threat model's first batch.
          attacker: run.controllers[0].meta(null).attacker,
          runs: results.map((r) => Array.from({ length: n }, (_, i) => r.taskResults.find((t) => t.index === i + 1)?.success === true)),
        })
      },
    }
    void startRun(watched, invalidateBrowserResults).then((o) => {
      if (o.error !== null) resolve({ error: o.error })
    })
  })
}

/**
 * The search over the distinct scope-only threat models (the designer's #N, what the sweep runs), or with
 * `readOnly` over every threat model, per tag none / read only / read & write (GrantLattice: the same space as
 * `redscope frontier --read-only`, opt-in there too since it squares the space). With `test`, each evaluated
 * threat model is decided by a sequential test on repeated runs (`redscope frontier --confidence`).
 */
export async function findWeakestAttacker(
  forest: Forest,
  domain: SecurityDomain,
  seed: Seed = 'low',
  readOnly = false,
  test: SequentialTest | null = null,
): Promise<void> {
  if (useFrontier.getState().state === 'running') return
  stopRequested = false
  const base = new ThreatModelLattice(domain)
  const lattice: SearchSpace = readOnly ? new GrantLattice(base) : base
  const taskCount = useSetup.getState().claim.tasks.length
  const session = new FrontierSession(lattice, { taskCount, seed, ...(test === null ? {} : { test }) })
  const dirs = new Map<string, string[]>()
  const live = lattice.total <= LIVE_COUNTS_UP_TO
  const setup = useSetup.getState()
  let basis: FrontierBasis = { forest, target: null, claim: setup.claim.name, attacker: setup.attacker.kind }
  const evaluationOf = new Map<string, Evaluation>()
  const testedFor = (e: Evaluation | undefined): PointTally | null => {
    if (test === null || e === undefined) return null
    const t = tallyOf(e.observation, 'claim')
    const i = sequenceInterval(outcomesOf(e.observation, 'claim'), test.confidence)
    const d = session.decided(e, 'claim')
    return { runs: t.runs, wins: t.wins, interval: [i.low, i.high], decision: d === 'loss' ? 'lose' : d }
  }
  const point = (c: Cover): FrontierPoint => {
    const m = lattice.modelOf(c)
    const key = coverKey(c)
    const ds = dirs.get(key) ?? []
    const e = evaluationOf.get(key)
    return {
      index: lattice.label(c),
      scope: m.scope,
      readOnly: m.readOnly,
      words: describeModel(m),
      dir: ds[0] ?? null,
      dirs: ds,
      tally: e === undefined ? null : tallyOf(e.observation, 'claim'),
      tested: testedFor(e),
    }
  }
  // Kept as the CLI's frontier.json, rewritten after every evaluation; writes are chained so the last one lands last.
  const id = `frontier-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`
  const createdAt = Date.now()
  let saving: Promise<void> = Promise.resolve()
  const runsOf = (m: { scope: readonly string[]; readOnly: readonly string[] }, n: number) =>
    (dirs.get(coverKey(lattice.coverOfModel({ scope: [...m.scope], readOnly: [...m.readOnly] }))) ?? []).slice(0, n)
  const keep = (answer: ReturnType<FrontierSession['answer']>) => {
    const goals = useSetup.getState().claim.tasks.map((t) => t.goal)
    const file = frontierFile(
      lattice,
      answer,
      {
        target: basis.target ?? '',
        claim: basis.claim,
        attacker: basis.attacker,
        claim_digest: '',
        attacker_digest: '',
        seed,
        repeat: test?.maxRepeats ?? 1,
        per_task: false,
        budget_runs: null,
        read_only: readOnly,
        ...(test === null ? {} : { confidence: test.confidence, threshold: test.threshold, max_repeats: test.maxRepeats }),
      },
      goals,
      runsOf,
    )
    const title = `${basis.claim || 'claim'} on ${basis.target ?? 'the target'}, attacker ${basis.attacker}`
    useFrontier.setState({ kept: file })
    saving = saving
      .then(() => saveFrontier({ id, title, createdAt, file }))
      .then(
        () => {
          useFrontier.setState({ keptId: id })
          invalidateBrowserResults()
        },
        (e: unknown) => {
          useFrontier.setState({ error: `the search could not be kept in this browser: ${(e as Error).message}` })
        },
      )
  }
  const publish = (state: FrontierState['state'], error: string | null = null) => {
    const answer = session.answer(state === 'stopped')
    for (const e of answer.evaluations) evaluationOf.set(coverKey(e.cover), e)
    const counts = live || state === 'done' ? session.counts('claim') : null
    const decisions = test === null ? 0 : answer.evaluations.filter((e) => session.decided(e, 'claim') !== 'undecided').length
    useFrontier.setState({
      state,
      error,
      readOnly,
      total: Number(lattice.total),
      evaluated: answer.evaluations.length,
      inferred: counts?.inferred ?? null,
      undecided: counts?.undecided ?? null,
      minimalWins: answer.claim.minimalWins.map(point),
      maximalLosses: answer.claim.maximalLosses.map(point),
      contradictions: answer.contradictions.length,
      basis,
      test,
      undecidedPoints: answer.claim.undecided.map(point),
      evaluatedPoints: test === null ? [] : answer.evaluations.map((e) => point(e.cover)),
      runs: session.runsSpent,
      guarantee: test === null ? null : { decisions, allRightAtLeast: Math.max(0, 1 - decisions * (1 - test.confidence)) },
    })
    // Kept with the counts shown on the page (the session's answer carries none: the page scans for them itself).
    if (answer.evaluations.length > 0) keep({ ...answer, claim: { ...answer.claim, counts } })
  }
  useFrontier.setState({ keptId: null, kept: null })
  publish('running')
  try {
    // Runs side by side: as many as the sweep's "Threat models at once" (they share the target's sessions).
    const atOnce = test === null ? 1 : Math.max(1, numberOrThrow(useSetup.getState().threat.parallelModels, RULES.parallelModels) ?? 1)
    for (let c = session.next(); c !== null; c = session.next()) {
      if (stopRequested) return publish('stopped')
      const m = lattice.modelOf(c)
      const model = { scope: [...m.scope], readOnly: [...m.readOnly] }
      const had = session.current()?.observation.runs.length ?? 0
      const batch = test === null ? 1 : Math.min(session.runsWanted(), atOnce)
      const repeats = Array.from({ length: batch }, (_, i) => had + i + 1)
      // Without a test, the one run is the plain single run it always was.
      const outcome = await evaluateBatch(test === null ? singleRequest(forest, model) : repeatsRequest(forest, model, repeats))
      if (outcome === null) return publish('stopped')
      if ('error' in outcome) return publish('failed', outcome.error)
      dirs.set(coverKey(c), [...(dirs.get(coverKey(c)) ?? []), ...outcome.dirs])
      basis = { ...basis, target: outcome.target, ...(had === 0 ? { attacker: outcome.attacker } : {}) }
      session.submit({ runs: outcome.runs })
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
export function frontierForSweep(
  f: FrontierState,
  sweep: { forest: Forest; target: string; claim: string; attacker: string },
): KnownFrontier | null {
  const b = f.basis
  if (f.state !== 'done' || b === null || b.target !== sweep.target || b.claim !== sweep.claim || b.attacker !== sweep.attacker) return null
  if (!sameForest(b.forest, sweep.forest)) return null
  return {
    minimalWins: f.minimalWins,
    source: `The frontier found on this page (${f.evaluated} threat models run)`,
    answer: f.kept ? answerWords(f.kept) : null,
  }
}
