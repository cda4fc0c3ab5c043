import { pairNames, type ScopePair } from '../../core/model'
import { THREAT_MODELS_FILE } from '../../core/threatModels'
import { downloadText } from '../../lib/download'
import { plural } from '../../lib/plural'
import { notify } from '../../stores/noticeStore'
import { useDesigner } from '../../stores/designerStore'
import { selectDoc } from '../../stores/selectors'
import { useWorkspace, workspaceStore } from '../../stores/workspaceStore'
import type { SavedModel } from '../../stores/workspaceTypes'
import { exportThreatModels, importThreatModels } from './threatModelsFile'
import { FileButton } from '../../components/FileButton'

function sameScope(a: ScopePair, b: ScopePair): boolean {
  const k = (p: ScopePair) => `${[...p.scope].sort().join(',')}|${[...p.readOnly].sort().join(',')}`
  return k(a) === k(b)
}

function Row({ m }: { m: SavedModel }) {
  const doc = useDesigner(selectDoc)
  const dispatch = useDesigner((s) => s.dispatch)
  const names = pairNames(doc, m)
  const current = sameScope(doc, m)
  // A tag deleted, or gone with a replaced forest: counted, so the model never just reads as granting nothing.
  const gone = new Set([...m.scope, ...m.readOnly]).size - names.scope.length - names.readOnly.length
  const { updateModel, deleteModel } = workspaceStore.getState()
  return (
    <li className={`saved${current ? ' saved--current' : ''}`} aria-label={`Threat model ${m.name}`}>
      <div className="saved__head">
        <input
          className="input saved__name"
          aria-label="Name"
          defaultValue={m.name}
          key={`n-${m.id}-${m.name}`}
          onBlur={(e) => e.target.value.trim() && e.target.value !== m.name && updateModel(m.id, { name: e.target.value.trim() })}
        />
        <button
          type="button"
          className="btn btn--small"
          disabled={current}
          onClick={() => dispatch({ type: 'setScope', scope: m.scope, readOnly: m.readOnly })}
        >
          {current ? 'Applied' : 'Apply'}
        </button>
        <button type="button" className="icon-btn" aria-label={`Delete ${m.name}`} onClick={() => deleteModel(m.id)}>
          ✕
        </button>
      </div>
      <div className="saved__grants">
        {names.scope.map((n) => (
          <span key={n} className="chip chip--scope">
            {n}
          </span>
        ))}
        {names.readOnly.map((n) => (
          <span key={n} className="chip chip--read_only">
            {n} (read only)
          </span>
        ))}
        {gone > 0 ? <span className="muted">({plural(gone, 'granted tag')} no longer in the forest)</span> : null}
      </div>
      <textarea
        className="input saved__notes"
        aria-label={`Notes for ${m.name}`}
        rows={2}
        defaultValue={m.notes}
        key={`t-${m.id}-${m.notes}`}
        placeholder="Notes"
        onBlur={(e) => e.target.value !== m.notes && updateModel(m.id, { notes: e.target.value })}
      />
    </li>
  )
}

/** Export to and import from threat-models.json, which `redscope sweep --threat-models` runs (docs/ci.md). */
function FileButtons() {
  const doc = useDesigner(selectDoc)
  const models = useWorkspace((s) => s.models)
  return (
    <div className="saved__files">
      <button
        type="button"
        className="btn btn--small"
        disabled={models.length === 0}
        onClick={() => downloadText(THREAT_MODELS_FILE, exportThreatModels(doc, models), 'application/json')}
      >
        Export threat-models.json
      </button>
      <FileButton
        className="btn btn--small btn--file"
        accept=".json,application/json"
        ariaLabel="Import threat-models.json"
        onFile={async (file) => {
          try {
            const imported = importThreatModels(doc, await file.text(), file.name)
            const { saveModel } = workspaceStore.getState()
            // One already saved under the same name with the same grants is not saved twice: importing again changes nothing.
            const fresh = imported.filter((m) => !models.some((s) => s.name === m.name && sameScope(s, m)))
            for (const m of fresh) saveModel(m.name, { scope: m.scope, readOnly: m.readOnly }, m.notes)
            const kept = imported.length - fresh.length
            notify(
              'info',
              `${file.name}: ${plural(fresh.length, 'threat model')} imported${kept > 0 ? `, ${plural(kept, 'was', 'were')} already saved` : ''}`,
            )
          } catch (err) {
            notify('error', (err as Error).message)
          }
        }}
      >
        Import threat-models.json…
      </FileButton>
    </div>
  )
}

/** The workspace's saved threat models: name, scope, read_only, notes. */
export function SavedModels() {
  const models = useWorkspace((s) => s.models)
  return (
    <>
      {models.length === 0 ? (
        <p className="muted">No saved threat models yet: grant tags, then “Save threat model” in the Scope panel.</p>
      ) : (
        <ul className="saved-list" aria-label="Saved threat models">
          {models.map((m) => (
            <Row key={m.id} m={m} />
          ))}
        </ul>
      )}
      <FileButtons />
    </>
  )
}
