import { useMemo, useState } from 'react'
import { lookupReference, parseReferenceList } from '../../core/compliance'
import { accessIn, placeOf, subtreeIds, type Access, type TagId } from '../../core/model'
import { designerStore, useDesigner } from '../../stores/designerStore'
import { coverageFor, forestFindingsOf, selectDoc, tagIndex } from '../../stores/selectors'
import { addChild, deleteCount, deleteTags, describeTag, moveAmongSiblings, renameTag, reparent, setTagReferences } from './designerActions'
import { ACCESS_LABEL, COVERAGE_LABEL } from './labels'
import { ForestOverview } from './ForestOverview'
import { plural } from '../../lib/plural'

const ACCESSES: Access[] = ['none', 'scope', 'read_only']

/** Text that commits on blur or Enter (Ctrl+Enter in a textarea), like a form field in a property panel. */
function CommitField({
  label,
  value,
  onCommit,
  multiline = false,
  id,
}: {
  label: string
  value: string
  onCommit: (v: string) => void
  multiline?: boolean
  id: string
}) {
  const [draft, setDraft] = useState<string | null>(null)
  const shown = draft ?? value
  const commit = () => {
    if (draft !== null && draft !== value) onCommit(draft)
    setDraft(null)
  }
  const props = {
    id,
    className: 'input',
    value: shown,
    spellCheck: false,
    onChange: (e: { target: { value: string } }) => setDraft(e.target.value),
    onBlur: commit,
  }
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {multiline ? (
        <textarea
          {...props}
          rows={3}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) commit()
            if (e.key === 'Escape') setDraft(null)
          }}
        />
      ) : (
        <input
          {...props}
          onKeyDown={(e) => {
            if (e.key === 'Enter') commit()
            if (e.key === 'Escape') setDraft(null)
          }}
        />
      )}
    </div>
  )
}

/**
 * A tag's framework references as one line of ids (`LLM01, AML.T0051`), checked against the one list on commit:
 * an unknown id is named under the field and nothing changes until the line is right.
 */
function ReferencesField({ id, value }: { id: TagId; value: readonly string[] }) {
  const text = value.join(', ')
  const [draft, setDraft] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const commit = () => {
    if (draft === null) return
    const parsed = parseReferenceList(draft)
    if ('error' in parsed) {
      setError(parsed.error)
      return
    }
    setError(null)
    setDraft(null)
    setTagReferences(id, parsed.ids)
  }
  return (
    <div className="field">
      <label className="field__label" htmlFor="inspector-references">
        Framework references (OWASP LLM01..10, Agentic T1..T15, ATLAS AML.Txxxx, NIST AI RMF)
      </label>
      <input
        id="inspector-references"
        className="input"
        spellCheck={false}
        value={draft ?? text}
        placeholder="e.g. LLM01, AML.T0051"
        aria-invalid={error !== null}
        aria-describedby={error !== null ? 'inspector-references-error' : undefined}
        onChange={(e) => {
          setDraft(e.target.value)
          setError(null)
        }}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit()
          if (e.key === 'Escape') {
            setDraft(null)
            setError(null)
          }
        }}
      />
      {error !== null ? (
        <p id="inspector-references-error" className="finding finding--error" role="alert">
          {error}
        </p>
      ) : null}
      {value.length > 0 ? (
        <ul className="muted" aria-label="References of this tag">
          {value.map((r) => (
            <li key={r}>
              <code>{r}</code> {lookupReference(r)?.title ?? "(not in this version's list)"}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}

function OneTag({ id }: { id: TagId }) {
  const doc = useDesigner(selectDoc)
  const tag = tagIndex(doc.tags).get(id)!
  const place = placeOf(doc, id)!
  const cov = coverageFor(doc, id)
  const access = accessIn(doc, id)
  const findings = forestFindingsOf(doc.tags).filter((f) => f.tags[0] === id)
  const inside = subtreeIds(doc.tags, [id])
  const parentOptions = doc.tags.filter((t) => !inside.has(t.id))
  const viaName = cov?.via && cov.via !== id ? tagIndex(doc.tags).get(cov.via)?.name : null
  return (
    <section className="inspector" aria-label={`Tag ${tag.name}`}>
      {/* Remount the fields when another tag is selected. */}
      <CommitField
        key={`n-${id}`}
        id="inspector-name"
        label="Name (the capability, not a persona)"
        value={tag.name}
        onCommit={(v) => v.trim() && renameTag(id, v.trim())}
      />
      <CommitField
        key={`d-${id}`}
        id="inspector-description"
        label="Description (what holding it lets an attacker do)"
        value={tag.description}
        onCommit={(v) => describeTag(id, v)}
        multiline
      />
      <ReferencesField key={`r-${id}`} id={id} value={tag.references ?? []} />
      <div className="field">
        <label className="field__label" htmlFor="inspector-parent">
          Parent (a parent includes its children)
        </label>
        <select
          id="inspector-parent"
          className="input"
          value={tag.parent ?? ''}
          onChange={(e) => reparent([id], e.target.value === '' ? null : (e.target.value as TagId))}
        >
          <option value="">(none: a root, an independent channel)</option>
          {parentOptions.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <span className="field__label">
          Order among siblings ({place.index + 1} of {place.siblings.length}; order fixes the order of threat models)
        </span>
        <span className="row">
          <button type="button" className="btn" disabled={place.index === 0} onClick={() => moveAmongSiblings(id, -1)}>
            ← Move left
          </button>
          <button
            type="button"
            className="btn"
            disabled={place.index === place.siblings.length - 1}
            onClick={() => moveAmongSiblings(id, 1)}
          >
            Move right →
          </button>
        </span>
      </div>
      <fieldset className="field access-choice">
        <legend className="field__label">Access in the current threat model</legend>
        {ACCESSES.map((a) => (
          <label key={a} className={`access-choice__item access-choice__item--${a}`}>
            <input
              type="radio"
              name={`access-${id}`}
              checked={access === a}
              onChange={() => designerStore.getState().dispatch({ type: 'setAccess', ids: [id], access: a })}
            />
            {ACCESS_LABEL[a]}
          </label>
        ))}
        <p className="muted">
          Effective: {COVERAGE_LABEL[cov?.effective ?? 'none']}
          {viaName ? ` (via ${viaName})` : ''}.
        </p>
      </fieldset>
      {findings.length > 0 ? (
        <ul className="finding-list" aria-label="Advice for this tag">
          {findings.map((f, i) => (
            <li key={i} className={`finding finding--${f.severity}`}>
              {f.principle ? <strong>Principle {f.principle}. </strong> : null}
              {f.message}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="row">
        <button type="button" className="btn" onClick={() => addChild()}>
          + Child
        </button>
        <button type="button" className="btn btn--danger" onClick={() => deleteTags([id])}>
          Delete {inside.size > 1 ? `with its ${inside.size - 1} descendant${inside.size > 2 ? 's' : ''}` : 'tag'}
        </button>
      </div>
    </section>
  )
}

function ManyTags({ ids }: { ids: TagId[] }) {
  const doc = useDesigner(selectDoc)
  return (
    <section className="inspector" aria-label={`${ids.length} tags selected`}>
      <p>
        <strong>{ids.length} tags selected.</strong> Drag one of them to move them all; Shift-click to add or remove.
      </p>
      <div className="field">
        <label className="field__label" htmlFor="inspector-many-parent">
          Move all under
        </label>
        <select
          id="inspector-many-parent"
          className="input"
          value="-"
          onChange={(e) => e.target.value !== '-' && reparent(ids, e.target.value === '' ? null : (e.target.value as TagId))}
        >
          <option value="-">choose a parent…</option>
          <option value="">(none: make them roots)</option>
          {doc.tags
            .filter((t) => !ids.includes(t.id))
            .map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
        </select>
      </div>
      <div className="row">
        {ACCESSES.map((a) => (
          <button
            key={a}
            type="button"
            className="btn"
            onClick={() => designerStore.getState().dispatch({ type: 'setAccess', ids, access: a })}
          >
            All {ACCESS_LABEL[a]}
          </button>
        ))}
      </div>
      <button type="button" className="btn btn--danger" onClick={() => deleteTags(ids)}>
        Delete {plural(deleteCount(ids), 'tag')}
      </button>
    </section>
  )
}

/** The property panel: one tag, several, or (nothing selected) the forest as a whole. */
export function TagInspector() {
  const selected = useDesigner((s) => s.selected)
  const tags = useDesigner((s) => s.history.present.tags)
  const ids = useMemo(() => {
    const known = new Set(tags.map((t) => t.id))
    return selected.filter((id) => known.has(id))
  }, [selected, tags])
  if (ids.length === 0) return <ForestOverview />
  if (ids.length === 1) return <OneTag id={ids[0]} />
  return <ManyTags ids={ids} />
}
