import { useState } from 'react'
import { Link } from 'wouter'
import { chosenModel, type DesignerView } from '../designer/designerView'
import { startRun, type StartOutcome } from '../engine/runner'
import { Dashboard } from '../live/ui/Dashboard'
import { useLiveStore } from '../live/liveStore'
import { invalidateResults } from '../queries/queryClient'
import { setupActions, useSetup } from '../setup/setupStore'
import { ScopeChips } from '../ui/Chips'
import { EmptyState } from './EmptyState'
import { singleRequest } from './startRequest'

function ModelChoice({ view }: { view: DesignerView }) {
  const source = useSetup((s) => s.threat.source)
  const options = [{ id: 'designer', name: 'Current scope in the designer', scope: view.current.scope, readOnly: view.current.readOnly }, ...view.saved]
  return (
    <ul className="rc-list rc-models" role="radiogroup" aria-label="Threat model">
      {options.map((m) => (
        <li key={m.id}>
          <button type="button" role="radio" aria-checked={source === m.id || (m.id === 'designer' && !options.some((o) => o.id === source))}
            className="rc-pick" onClick={() => setupActions().setThreat({ source: m.id })}>
            <span className="rc-pick__name">{m.name}</span>
            <ScopeChips scope={m.scope} readOnly={m.readOnly} empty="empty scope: grant tags in the designer" />
          </button>
        </li>
      ))}
    </ul>
  )
}

/** A single threat model: choose it, run it, watch it; the human attacker plays here. */
export function ConsolePage({ view }: { view: DesignerView }) {
  const source = useSetup((s) => s.threat.source)
  const busy = useLiveStore((s) => s.session?.state === 'running' || s.session?.state === 'cancelling')
  const hasSession = useLiveStore((s) => s.session !== null)
  const [outcome, setOutcome] = useState<StartOutcome | null>(null)
  const [starting, setStarting] = useState(false)
  const model = chosenModel(view, source) ?? chosenModel(view, 'designer')!
  return (
    <>
      <section className="rc-card" aria-label="Threat model">
        <div className="rc-row rc-row--spread">
          <h2 className="rc-card__title"><span className="rc-step">5</span> Threat model <span className="rc-muted">from workspace “{view.workspace}”</span></h2>
          <Link href="~/" className="rc-link rc-small">Edit scopes in the designer</Link>
        </div>
        <ModelChoice view={view} />
        <div className="rc-row rc-runbar">
          <button type="button" className="rc-btn rc-btn--primary rc-btn--big" disabled={busy || starting} onClick={async () => {
            setStarting(true)
            setOutcome(null)
            try {
              setOutcome(await startRun(singleRequest(view.forest, model), invalidateResults))
            } finally {
              setStarting(false)
            }
          }}>{starting ? 'Connecting…' : busy ? 'Running…' : 'Run threat model'}</button>
          <span className="rc-muted rc-small">Scope is matched to the target’s tags by name. Results are saved in this browser.</span>
        </div>
        {outcome?.error ? <p className="rc-error" role="alert" data-testid="start-error">{outcome.error}</p> : null}
        {outcome?.notes.length ? <ul className="rc-warn rc-notes">{outcome.notes.map((n) => <li key={n}>{n}</li>)}</ul> : null}
      </section>
      {hasSession ? <Dashboard kind="any" /> : <EmptyState />}
    </>
  )
}
