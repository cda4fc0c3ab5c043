/**
 * What the claim panel says about a Target URL's own claim (a superred claim served beside its target): the
 * tasks it serves, marked as served by the target, and which claim will run. Reads the manifest the user
 * tested (the same cached query as the connection's status), so it never asks the server on its own.
 */
import { plural } from '../../../../lib/plural'
import { claimUntouched } from '../demoClaim'
import { httpTargetUrl, SERVED_MARK, servedClaimDraft, servedFrom } from '../servedClaim'
import { setupActions, useSetup } from '../setupStore'
import type { ServedManifest } from '../useServedManifest'

export function ServedClaim({ served }: { served: ServedManifest | null }) {
  const claim = useSetup((s) => s.claim)
  const target = useSetup((s) => s.target)
  const from = servedFrom(claim)
  const here = httpTargetUrl(target)
  // A table loaded from another server's claim names tasks this target may not have: say so.
  const elsewhere =
    from !== null && claim.tasks.length > 0 && (target.kind !== 'http' || from !== here) ? (
      <p className="rc-warn rc-small" role="status">
        These tasks are served by {from}, not by the target set above: its claim numbers them.
      </p>
    ) : null
  if (served === null || served.manifest.claim === null) return elsewhere
  const c = served.manifest.claim
  if (claimUntouched(claim)) {
    return (
      <div data-testid="served-claim">
        <p className="rc-muted">
          {served.manifest.name} serves its own claim, <strong>{c.name}</strong> ({plural(c.tasks.length, 'task')}): each task configures
          the session and judges each run on the target’s side. It runs unless you pick or write another.
        </p>
        <ol className="rc-tasks" aria-label="Tasks served by the target">
          {c.tasks.map((t, i) => (
            <li key={i}>
              <span className="rc-tasks__goal">{t.goal}</span>
              <span className="rc-tasks__meta">
                <span className="rc-tag">{SERVED_MARK}</span>
              </span>
            </li>
          ))}
        </ol>
      </div>
    )
  }
  if (from === served.url) return null
  return (
    <>
      {elsewhere}
      <p className="rc-muted rc-small" data-testid="served-claim">
        {served.manifest.name} also serves its own claim, {c.name} ({plural(c.tasks.length, 'task')}).{' '}
        <button
          type="button"
          className="rc-btn rc-btn--small"
          onClick={() => setupActions().setClaim(servedClaimDraft(served.manifest, served.url)!)}
        >
          Use the target’s claim
        </button>
      </p>
    </>
  )
}
