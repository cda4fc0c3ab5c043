import { useState } from 'react'
import { useDesigner } from '../../stores/designerStore'
import { notify } from '../../stores/noticeStore'
import { selectDoc } from '../../stores/selectors'
import { workspaceStore } from '../../stores/workspaceStore'

/** Saves the current scope and read_only as a named threat model of this workspace. */
export function SaveModelForm() {
  const doc = useDesigner(selectDoc)
  const [name, setName] = useState('')
  const [notes, setNotes] = useState('')
  const empty = doc.scope.length + doc.readOnly.length === 0
  return (
    <form
      className="save-model"
      onSubmit={(e) => {
        e.preventDefault()
        const m = workspaceStore
          .getState()
          .saveModel(name.trim() || `Threat model ${workspaceStore.getState().models.length + 1}`, doc, notes)
        notify('info', `Saved “${m.name}”.`)
        setName('')
        setNotes('')
      }}
    >
      <label className="field__label" htmlFor="save-model-name">
        Save this threat model
      </label>
      <input id="save-model-name" className="input" placeholder="e.g. Blind user" value={name} onChange={(e) => setName(e.target.value)} />
      <label className="sr-only" htmlFor="save-model-notes">
        Notes
      </label>
      <textarea
        id="save-model-notes"
        className="input"
        rows={2}
        placeholder="Notes (why this attacker matters)"
        value={notes}
        onChange={(e) => setNotes(e.target.value)}
      />
      <button type="submit" className="btn btn--primary" disabled={empty} title={empty ? 'Grant at least one tag first' : undefined}>
        Save threat model
      </button>
    </form>
  )
}
