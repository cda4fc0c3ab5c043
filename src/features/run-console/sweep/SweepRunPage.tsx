import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Link, useLocation, useParams } from 'wouter'
import { expandPick } from '../../../core/sweep'
import { combinationIndex, type SecurityDomainTag } from '../../../core/tags'
import type { ThreatModelNames } from '../runner/buildRun'
import { applyDemoClaim } from '../setup/demoClaim'
import { applyServedClaim } from '../setup/servedClaim'
import type { DesignerView } from '../workspace/designerView'
import { startRun, type StartOutcome } from '../runner/runner'
import { browserRunsHref } from '../../../lib/browserResults'
import { Dashboard } from '../live/ui/Dashboard'
import { useLiveStore } from '../live/liveStore'
import { invalidateBrowserResults } from '../../../queries/queryClient'
import { sweepQuery, sweepsQuery } from '../queries/results'
import { checkNumber, RULES } from '../setup/numbers'
import { useSetup } from '../setup/setupStore'
import { useClaimTargetMismatch } from '../setup/useClaimTargetMismatch'
import { ClaimTargetBlock } from '../setup/ui/ClaimTargetBlock'
import { sweepRequest } from '../run/startRequest'
import { WorkspaceChoice } from '../run/ConsolePage'
import { pickOf } from './pickOf'
import { FrontierPanel } from './FrontierPanel'
import { SweepPicker } from './SweepPicker'
import { SweepResults } from './SweepResults'

/** A workspace's saved threat models for a sweep: a model granting exactly a distinct combination keeps its index. */
function savedModels(view: DesignerView): Array<ThreatModelNames & { index: bigint | null }> {
  const domain = view.domain!
  return view.saved.map((m) => {
    const tags = m.scope.map((n) => domain.get(n))
    const index =
      m.readOnly.length === 0 && tags.every((t) => t !== undefined) ? combinationIndex(domain, tags as SecurityDomainTag[]) : null
    return { index, scope: m.scope, readOnly: m.readOnly, savedName: m.name }
  })
}

function RunSweepButton({ view, onOutcome }: { view: DesignerView; onOutcome: (o: StartOutcome) => void }) {
  const busy = useLiveStore((s) => s.session?.state === 'running' || s.session?.state === 'cancelling')
  const [starting, setStarting] = useState(false)
  const [, navigate] = useLocation()
  const mismatch = useClaimTargetMismatch()
  return (
    <>
      <button
        type="button"
        className="rc-btn rc-btn--primary rc-btn--big"
        disabled={busy || starting || view.domain === null || mismatch !== null}
        onClick={async () => {
          const setup = useSetup.getState()
          const limit = checkNumber(setup.sweep.limit, { label: 'At most', min: 1, integer: true })
          const par = checkNumber(setup.threat.parallelModels, RULES.parallelModels)
          if (limit.error || par.error) return onOutcome({ error: limit.error ?? par.error, notes: [] })
          let models: Array<ThreatModelNames & { index: bigint | null }>
          try {
            models =
              setup.sweep.mode === 'saved'
                ? savedModels(view).slice(0, limit.value!)
                : expandPick(view.domain!, pickOf(setup.sweep), limit.value!).map((m) => ({ index: m.index, scope: m.scope, readOnly: [] }))
          } catch (e) {
            return onOutcome({ error: (e as Error).message, notes: [] })
          }
          if (models.length === 0) return onOutcome({ error: 'No threat model to run: pick at least one.', notes: [] })
          setStarting(true)
          try {
            await applyDemoClaim()
            await applyServedClaim()
            const outcome = await startRun(sweepRequest(view.forest, models), invalidateBrowserResults)
            onOutcome(outcome)
            const id = useLiveStore.getState().session?.sweepId
            if (outcome.error === null && id) navigate(`/sweep/${id}`)
          } finally {
            setStarting(false)
          }
        }}
      >
        {starting ? 'Connecting…' : busy ? 'Running…' : 'Run sweep'}
      </button>
      <ClaimTargetBlock reason={mismatch} />
    </>
  )
}

function Shown({ id }: { id: string }) {
  const q = useQuery(sweepQuery(id))
  if (q.error) return <p className="rc-error">{q.error.message}</p>
  if (!q.data)
    return (
      <p className="rc-muted" role="status">
        Loading the sweep…
      </p>
    )
  return <SweepResults record={q.data} />
}

/** Sweeps: pick threat models from the designer's distinct combinations, run them with runAll, read the painted forest and the grid. */
export function SweepRunPage({ view }: { view: DesignerView }) {
  const params = useParams<{ id?: string }>()
  const sweeps = useQuery(sweepsQuery())
  const [outcome, setOutcome] = useState<StartOutcome | null>(null)
  const shown = params.id ?? sweeps.data?.[0]?.id ?? null
  return (
    <>
      <section className="rc-card" aria-label="Sweep">
        <div className="rc-row rc-row--spread">
          <h2 className="rc-card__title">
            <span className="rc-step">5</span> Sweep the threat models of “{view.workspace}”
          </h2>
          <Link href="~/" className="rc-link rc-small">
            Edit the forest in the designer
          </Link>
        </div>
        <p className="rc-hint">
          Each threat model grants one of superred’s distinct combinations as the scope (read-only none), or is one of the workspace’s saved
          threat models (read-only included), with the target, claim, attacker and budget of steps 1-4; they run under one concurrency cap.
        </p>
        <WorkspaceChoice view={view} />
        <SweepPicker view={view} />
        <div className="rc-row rc-runbar">
          <RunSweepButton view={view} onOutcome={setOutcome} />
        </div>
        {outcome?.error ? (
          <p className="rc-error" role="alert" data-testid="start-error">
            {outcome.error}
          </p>
        ) : null}
        {outcome?.notes.length ? (
          <ul className="rc-warn rc-notes">
            {outcome.notes.slice(0, 5).map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        ) : null}
      </section>
      <FrontierPanel view={view} />
      <Dashboard kind="sweep" />
      {sweeps.data && sweeps.data.length > 0 ? (
        <nav className="rc-row rc-sweeps" aria-label="Sweeps in this browser">
          <span className="rc-label">Sweeps:</span>
          {sweeps.data.slice(0, 8).map((s) => (
            <Link key={s.id} href={`/sweep/${s.id}`} className="rc-sweeps__link" aria-current={s.id === shown ? 'page' : undefined}>
              {new Date(s.createdAt).toLocaleString()} · {s.models.length}
            </Link>
          ))}
          {sweeps.data.length > 8 ? (
            <Link href={`~${browserRunsHref()}`} className="rc-link">
              all…
            </Link>
          ) : null}
        </nav>
      ) : null}
      {shown ? <Shown key={shown} id={shown} /> : null}
    </>
  )
}
