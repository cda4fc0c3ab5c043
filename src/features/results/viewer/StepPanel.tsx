import { useState } from 'react'
import { stepNumber, type Replay } from '../../../core/replay'
import type { StepAnnotation } from '../../../core/finding'
import { ItemDetail } from './ItemViews'

interface Props {
  readonly replay: Replay
  readonly row: number
  readonly annotation: StepAnnotation | undefined
  readonly onSave: (value: StepAnnotation) => void
  readonly fileStem: string
}

/** The selected step in full: why the attacker could or could not see or change it, its fields, and its note. */
export function StepPanel({ replay, row, annotation, onSave, fileStem }: Props) {
  const why = replay.explain(row)
  const full = replay.fullItem(row)
  const seen = replay.attackerItem(row)
  const index = replay.itemOfRow(row)
  return (
    <aside className="step-panel" aria-label="Selected step">
      <h3>
        Step {stepNumber(index) ?? '(attacker only)'} <span className="step-panel__of">of {replay.items.length}</span>
      </h3>
      <section className={`why${why.mismatch ? ' why--mismatch' : ''}`} aria-label="Why">
        <p className="why__verdict">
          <span
            className={seen ? 'verdict verdict--seen' : replay.learned(row) ? 'verdict verdict--learned' : 'verdict verdict--hidden'}
            data-testid="seen-verdict"
          >
            {why.words.seenVerdict}
          </span>
          <span className={why.writable ? 'verdict verdict--write' : 'verdict'}>{why.words.writeVerdict}</span>
        </p>
        <ul>
          {why.lines.map((l) => (
            <li key={l}>{l}</li>
          ))}
        </ul>
      </section>
      <NoteEditor key={`${fileStem}/${index}/${annotation?.note ?? ''}`} annotation={annotation} onSave={onSave} />
      {full ? (
        <ItemDetail item={full} fileStem={`${fileStem}-step${stepNumber(index)}`} />
      ) : (
        seen && <ItemDetail item={seen} fileStem={`${fileStem}-attacker`} />
      )}
    </aside>
  )
}

function NoteEditor({ annotation, onSave }: { annotation: StepAnnotation | undefined; onSave: (v: StepAnnotation) => void }) {
  const [draft, setDraft] = useState(annotation?.note ?? '')
  const bookmarked = annotation?.bookmarked ?? false
  const dirty = draft !== (annotation?.note ?? '')
  return (
    <form
      className="note-editor"
      onSubmit={(e) => {
        e.preventDefault()
        onSave({ note: draft, bookmarked })
      }}
    >
      <label>
        Speaker note
        <textarea rows={3} value={draft} onChange={(e) => setDraft(e.target.value)} placeholder="What to say at this step" />
      </label>
      <div className="note-editor__actions">
        <button type="submit" disabled={!dirty}>
          Save note
        </button>
        <button type="button" aria-pressed={bookmarked} onClick={() => onSave({ note: draft, bookmarked: !bookmarked })}>
          {bookmarked ? '★ Bookmarked' : '☆ Bookmark'}
        </button>
      </div>
    </form>
  )
}
