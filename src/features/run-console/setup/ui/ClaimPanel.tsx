import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { claimFileQuery, claimsIndexQuery } from '../../queries/claims'
import { Card } from '../../ui/Card'
import { Modal } from '../../../../components/Modal'
import { checkClaim, draftFromClaimFile } from '../claimDraft'
import { claimUntouched, DEMO_CLAIMS } from '../demoClaim'
import { setupActions, useSetup } from '../setupStore'
import { ClaimEditor } from './ClaimEditor'
import { SERVED_MARK } from '../servedClaim'
import { useServedManifest } from '../useServedManifest'
import { ServedClaim } from './ServedClaim'
import { plural } from '../../../../lib/plural'
import { goalEchoText, goalEchoWarnings } from '../../../../claims'

function ShippedClaims({ forTarget }: { forTarget: string | null }) {
  const q = useQuery(claimsIndexQuery())
  const client = useQueryClient()
  const origin = useSetup((s) => s.claim.origin)
  const [error, setError] = useState<string | null>(null)
  if (q.error) return <p className="rc-error">Could not list the shipped claims: {q.error.message}</p>
  const claims = (q.data ?? []).filter((c) => forTarget === null || c.target === forTarget)
  return (
    <div className="rc-field">
      <label className="rc-label" htmlFor="rc-shipped">
        Shipped claim{forTarget ? ` for the ${forTarget}` : ''}
      </label>
      <select
        id="rc-shipped"
        className="rc-input"
        value={claims.some((c) => c.file === origin) ? origin : ''}
        onChange={async (e) => {
          const file = e.target.value
          if (!file) return
          try {
            setupActions().setClaim(draftFromClaimFile(await client.fetchQuery(claimFileQuery(file)), file))
            setError(null)
          } catch (err) {
            setError((err as Error).message)
          }
        }}
      >
        <option value="">{q.isPending ? 'loading…' : 'pick a claim…'}</option>
        {claims.map((c) => (
          <option key={c.file} value={c.file}>
            {c.name} ({plural(c.tasks, 'task')})
          </option>
        ))}
      </select>
      <span className="rc-hint">
        {claims.find((c) => c.file === origin)?.description ?? 'Loads into the claim’s task table, where every cell can be edited.'}
      </span>
      {error ? (
        <span className="rc-issue" role="alert">
          {error}
        </span>
      ) : null}
    </div>
  )
}

export function ClaimPanel() {
  const claim = useSetup((s) => s.claim)
  const target = useSetup((s) => s.target)
  const [editing, setEditing] = useState(false)
  const { file, issues } = checkClaim(claim)
  // A task whose check matches its own goal invites echoes (pasting the goal passes the check): said beside the task.
  const echoWarnings = new Map((file === null ? [] : goalEchoWarnings(file)).map((w) => [w.task - 1, w]))
  const forTarget = target.kind === 'demo' ? target.demo : null
  const index = useQuery(claimsIndexQuery())
  const defaultClaim = forTarget === null ? undefined : index.data?.find((c) => c.file === DEMO_CLAIMS[forTarget])
  const served = useServedManifest()
  const servedClaim = claimUntouched(claim) ? (served?.manifest.claim ?? null) : null
  const summary = claim.tasks.length
    ? `${claim.name}, ${plural(claim.tasks.length, 'task')}`
    : defaultClaim && claim.origin === ''
      ? `${defaultClaim.name} (the demo’s own)`
      : servedClaim
        ? `${servedClaim.name} (${SERVED_MARK})`
        : 'none yet'
  return (
    <Card step={2} title="Claim" summary={summary}>
      <ShippedClaims forTarget={forTarget} />
      <ServedClaim served={served} />
      {claim.tasks.length > 0 ? (
        <ol className="rc-tasks" aria-label="Tasks of the claim">
          {claim.tasks.map((t, i) => {
            const bad = [...issues.keys()].some((k) => k.startsWith(`tasks.${i}.`))
            return (
              <li key={t.id} className={bad ? 'rc-tasks__bad' : undefined}>
                <span className="rc-tasks__goal">{t.goal || <em className="rc-muted">no goal yet</em>}</span>
                <span className="rc-tasks__meta">
                  {t.config
                    .split('\n')
                    .filter(Boolean)
                    .map((l) => (
                      <span key={l} className="rc-chip">
                        {l}
                      </span>
                    ))}
                  <span className="rc-tag">
                    {t.evaluator.type === 'served' ? `${SERVED_MARK} (task ${t.evaluator.servedTask})` : t.evaluator.type}
                  </span>
                </span>
                {echoWarnings.has(i) ? (
                  <span className="rc-warn" role="status" data-testid="goal-echo">
                    Warning: {goalEchoText(echoWarnings.get(i)!)}.
                  </span>
                ) : null}
              </li>
            )
          })}
        </ol>
      ) : forTarget !== null && claim.origin === '' && defaultClaim ? (
        <p className="rc-muted" data-testid="default-claim">
          The demo {forTarget}’s own claim, <strong>{defaultClaim.name}</strong> ({defaultClaim.tasks} tasks), runs unless you pick or write
          another.
        </p>
      ) : servedClaim ? null : (
        <p className="rc-muted">Pick a shipped claim, or write tasks yourself.</p>
      )}
      <div className="rc-row rc-row--spread">
        <button
          type="button"
          className="rc-btn"
          onClick={() => {
            if (claim.tasks.length === 0) setupActions().addTask()
            setEditing(true)
          }}
        >
          {claim.tasks.length ? 'Edit tasks…' : 'Write tasks…'}
        </button>
        {file ? (
          <span className="rc-ok rc-small">✓ valid</span>
        ) : claim.tasks.length ? (
          <span className="rc-issue">
            {issues.size} problem{issues.size === 1 ? '' : 's'}: open the table
          </span>
        ) : null}
      </div>
      {editing ? (
        <Modal label="Claim tasks" onClose={() => setEditing(false)}>
          <ClaimEditor onClose={() => setEditing(false)} />
        </Modal>
      ) : null}
    </Card>
  )
}
