import { useReactFlow } from '@xyflow/react'
import { useState } from 'react'
import type { TagId } from '../../core/model'
import { designerStore, useDesigner } from '../../stores/designerStore'
import { renameTag } from './designerActions'
import { revealTag } from './revealTag'

/** Rename in place: Enter or leaving the field keeps the name, Escape restores it. Validates as you type. */
export function TagNameEditor({ id, name }: { id: TagId; name: string }) {
  const [draft, setDraft] = useState(name)
  const flow = useReactFlow()
  // Once, when the field appears: bring the tag being named on screen (a new child may land outside the view).
  const [reveal] = useState(() => (el: HTMLInputElement | null) => {
    if (el) revealTag(flow, id)
  })
  const taken = useDesigner((s) => s.history.present.tags.some((t) => t.id !== id && t.name === draft.trim()))
  const problem =
    draft.trim() === ''
      ? 'A tag needs a name.'
      : taken
        ? `Another tag is already named ${draft.trim()}: superred refuses duplicates.`
        : null
  const finish = (keep: boolean, input: HTMLInputElement) => {
    const s = designerStore.getState()
    if (s.editing !== id) return
    // Keyboard work goes on from the tag itself (Tab adds a child, Enter a sibling).
    const node = input.closest<HTMLElement>('.react-flow__node')
    s.setEditing(null)
    if (keep && draft.trim() !== '') renameTag(id, draft.trim())
    if (document.activeElement === input) node?.focus()
  }
  return (
    <span className="tag-name-editor">
      <input
        ref={reveal}
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
          if (e.key === 'Enter') finish(true, e.currentTarget)
          if (e.key === 'Escape') finish(false, e.currentTarget)
        }}
        onBlur={(e) => finish(true, e.currentTarget)}
      />
      {problem ? (
        <span className="tag-name-editor__problem" role="alert">
          {problem}
        </span>
      ) : null}
    </span>
  )
}
