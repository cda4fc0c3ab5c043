import { useState } from 'react'
import type { TagId } from '../../core/model'
import { designerStore, useDesigner } from '../../stores/designerStore'
import { renameTag } from './designerActions'

/** Rename in place: Enter or leaving the field keeps the name, Escape restores it. Validates as you type. */
export function TagNameEditor({ id, name }: { id: TagId; name: string }) {
  const [draft, setDraft] = useState(name)
  const taken = useDesigner((s) => s.history.present.tags.some((t) => t.id !== id && t.name === draft.trim()))
  const problem = draft.trim() === '' ? 'A tag needs a name.' : taken ? `Another tag is already named ${draft.trim()}: superred refuses duplicates.` : null
  const finish = (keep: boolean) => {
    const s = designerStore.getState()
    if (s.editing !== id) return
    s.setEditing(null)
    if (keep && draft.trim() !== '') renameTag(id, draft.trim())
  }
  return (
    <span className="tag-name-editor">
      <input
        className="tag-name-editor__input nodrag nopan"
        aria-label="Tag name"
        aria-invalid={problem !== null}
        value={draft}
        autoFocus
        spellCheck={false}
        onFocus={(e) => e.currentTarget.select()}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => {
          e.stopPropagation()
          if (e.key === 'Enter') finish(true)
          if (e.key === 'Escape') finish(false)
        }}
        onBlur={() => finish(true)}
      />
      {problem ? <span className="tag-name-editor__problem" role="alert">{problem}</span> : null}
    </span>
  )
}
