import { useState } from 'react'
import { downloadText, safeFileName } from '../../../../lib/download'
import { ClaimFileError, parseClaimFile } from '../../../../claims'
import { checkClaim, claimFileText, draftFromClaimFile } from '../claimDraft'
import { setupActions, useSetup } from '../setupStore'
import { TaskRowEditor } from './TaskRowEditor'
import { FileButton } from '../../../../components/FileButton'

/** The claim as a table, validated as it is typed; import and export of claim files. */
export function ClaimEditor({ onClose }: { onClose: () => void }) {
  const claim = useSetup((s) => s.claim)
  const [importError, setImportError] = useState<string | null>(null)
  const { issues, file } = checkClaim(claim)
  return (
    <div className="rc-claim-editor">
      <div className="rc-row rc-row--spread">
        <h2 className="rc-h2">Claim: tasks</h2>
        <div className="rc-row">
          <FileButton
            className="rc-btn rc-file"
            accept=".json,application/json"
            ariaLabel="Import a claim file"
            onFile={async (f) => {
              try {
                setupActions().setClaim(draftFromClaimFile(parseClaimFile(await f.text(), f.name), f.name))
                setImportError(null)
              } catch (err) {
                if (err instanceof ClaimFileError) setImportError(err.message)
                else throw err
              }
            }}
          >
            Import claim file…
          </FileButton>
          <button
            type="button"
            className="rc-btn"
            onClick={() => downloadText(`${safeFileName(claim.name, 'claim')}.json`, claimFileText(claim), 'application/json')}
          >
            Export claim file
          </button>
          <button type="button" className="rc-btn rc-btn--primary" onClick={onClose}>
            Done
          </button>
        </div>
      </div>
      {importError ? (
        <p className="rc-error" role="alert">
          {importError}
        </p>
      ) : null}
      <div className="rc-grid2">
        <div className="rc-field">
          <label className="rc-label" htmlFor="rc-claim-name">
            Claim name (the claim segment of results folders)
          </label>
          <input
            id="rc-claim-name"
            className="rc-input"
            value={claim.name}
            aria-invalid={issues.has('name') || undefined}
            onChange={(e) => setupActions().patchClaim({ name: e.target.value })}
          />
          {issues.get('name') ? (
            <span className="rc-issue" role="alert">
              {issues.get('name')}
            </span>
          ) : null}
        </div>
        <div className="rc-field">
          <label className="rc-label" htmlFor="rc-claim-desc">
            Description
          </label>
          <input
            id="rc-claim-desc"
            className="rc-input"
            value={claim.description}
            onChange={(e) => setupActions().patchClaim({ description: e.target.value })}
          />
        </div>
      </div>
      <div className="rc-table-wrap">
        <table className="rc-table rc-table--claim" aria-label="Claim tasks">
          <thead>
            <tr>
              <th>#</th>
              <th>Goal</th>
              <th>
                Config values <span className="rc-muted">(name=value per line)</span>
              </th>
              <th>Evaluator</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {claim.tasks.map((t, i) => (
              <TaskRowEditor key={t.id} task={t} index={i} issues={issues} />
            ))}
          </tbody>
        </table>
      </div>
      <div className="rc-row rc-row--spread">
        <button type="button" className="rc-btn" onClick={() => setupActions().addTask()}>
          + Task
        </button>
        {file ? (
          <span className="rc-ok" role="status">
            ✓ {file.tasks.length} valid task{file.tasks.length === 1 ? '' : 's'}
          </span>
        ) : (
          <span className="rc-issue" role="status">
            {issues.get('tasks') ?? `${issues.size} problem${issues.size === 1 ? '' : 's'} to fix`}
          </span>
        )}
      </div>
    </div>
  )
}
