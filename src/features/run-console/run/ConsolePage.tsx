import { Link } from 'wouter'
import { useWorkspace } from '../../../stores/workspaceStore'
import { chosenModel, type DesignerView, type ThreatChoice } from '../workspace/designerView'
import { Dashboard } from '../live/ui/Dashboard'
import { useLiveStore } from '../live/liveStore'
import { setupActions, useSetup } from '../setup/setupStore'
import { ScopeChips } from '../../../components/Chips'
import { useClaimTargetMismatch } from '../setup/useClaimTargetMismatch'
import { EmptyState } from './EmptyState'
import { singleRequest } from './startRequest'
import { startSingle, useStartOutcome } from './startOutcomeStore'

/** Which workspace's threat models run: any saved workspace, pinned here (the designer opening another changes nothing). */
export function WorkspaceChoice({ view }: { view: DesignerView }) {
  const workspaces = useWorkspace((s) => s.workspaces)
  const activeId = useWorkspace((s) => s.activeId)
  return (
    <div className="rc-field">
      <label className="rc-label" htmlFor="rc-workspace">
        Workspace
      </label>
      <select
        id="rc-workspace"
        className="rc-input"
        value={view.workspaceId}
        onChange={(e) => setupActions().setThreat({ workspace: e.target.value, source: '' })}
      >
        {workspaces.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name || 'Untitled'} ({w.tagCount} tag{w.tagCount === 1 ? '' : 's'}){w.id === activeId ? ', open in the designer' : ''}
          </option>
        ))}
      </select>
      {view.missing ? (
        <span className="rc-issue" role="alert">
          The workspace this console was running has been deleted: it now shows “{view.workspace}”, the one open in the designer. Choose
          another above if that is not what you want.
        </span>
      ) : null}
    </div>
  )
}

function ModelChoice({ view, chosen }: { view: DesignerView; chosen: ThreatChoice | null }) {
  const current = chosenModel(view, 'designer')!
  const options = [{ id: 'designer', name: current.name, scope: current.scope, readOnly: current.readOnly }, ...view.saved]
  const emptyHint = view.open ? 'empty scope: grant tags in the designer' : 'empty scope'
  return (
    <ul className="rc-list rc-models" role="radiogroup" aria-label="Threat model">
      {options.map((m) => (
        <li key={m.id}>
          <button
            type="button"
            role="radio"
            aria-checked={chosen?.id === m.id}
            className="rc-pick"
            onClick={() => setupActions().setThreat({ source: m.id })}
          >
            <span className="rc-pick__name">{m.name}</span>
            <ScopeChips scope={m.scope} readOnly={m.readOnly} empty={emptyHint} />
          </button>
        </li>
      ))}
    </ul>
  )
}

/** Why the chosen threat model cannot run, said before the click rather than after it. */
function blocker(view: DesignerView, chosen: ThreatChoice | null): string | null {
  if (view.loading) return 'Reading the workspace…'
  if (chosen === null) return 'The threat model chosen earlier is no longer saved in this workspace: choose one above.'
  // superred runs a threat model that only reads (read_only alone); only one granting nothing at all is refused.
  if (chosen.scope.length === 0 && chosen.readOnly.length === 0) {
    return `${chosen.name} grants nothing: grant tags in the designer, or choose a saved threat model.`
  }
  return null
}

/** A single threat model: choose the workspace and the threat model, run it, watch it; the human attacker plays here. */
export function ConsolePage({ view }: { view: DesignerView }) {
  const source = useSetup((s) => s.threat.source)
  const busy = useLiveStore((s) => s.session?.state === 'running' || s.session?.state === 'cancelling')
  const hasSession = useLiveStore((s) => s.session !== null)
  const { outcome, starting } = useStartOutcome()
  const mismatch = useClaimTargetMismatch()
  const chosen = chosenModel(view, source)
  // A claim served by another target blocks the button; buildRun refuses it too, whatever starts the run.
  const blocked = blocker(view, chosen) ?? mismatch
  return (
    <>
      <section className="rc-card" aria-label="Threat model">
        <div className="rc-row rc-row--spread">
          <h2 className="rc-card__title">
            <span className="rc-step">5</span> Threat model
          </h2>
          <Link href="~/" className="rc-link rc-small">
            Edit scopes in the designer
          </Link>
        </div>
        <WorkspaceChoice view={view} />
        <ModelChoice view={view} chosen={chosen} />
        <p className="rc-small" data-testid="runs-what">
          {chosen ? (
            <>
              Runs <strong>{chosen.name}</strong> of workspace <strong>“{view.workspace}”</strong>.
            </>
          ) : (
            <>Nothing chosen in workspace “{view.workspace}”.</>
          )}
        </p>
        <div className="rc-row rc-runbar">
          <button
            type="button"
            className="rc-btn rc-btn--primary rc-btn--big"
            disabled={busy || starting || blocked !== null}
            onClick={() =>
              void startSingle(() =>
                singleRequest(
                  view.forest,
                  { ...chosen!, savedName: chosen!.id === 'designer' ? undefined : chosen!.name },
                  view.workspace,
                  true,
                ),
              )
            }
          >
            {starting ? 'Connecting…' : busy ? 'Running…' : 'Run threat model'}
          </button>
          <span className="rc-muted rc-small">Scope is matched to the target’s tags by name. Results are saved in this browser.</span>
        </div>
        {blocked && !view.loading ? (
          <p className="rc-issue" data-testid="run-blocked">
            {blocked}
          </p>
        ) : null}
        {outcome?.error ? (
          <p className="rc-error" role="alert" data-testid="start-error">
            {outcome.error}
          </p>
        ) : null}
        {outcome?.notes.length ? (
          <ul className="rc-warn rc-notes">
            {outcome.notes.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        ) : null}
      </section>
      {hasSession ? <Dashboard kind="any" /> : <EmptyState />}
    </>
  )
}
