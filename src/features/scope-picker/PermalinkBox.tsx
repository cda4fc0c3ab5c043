import { useState } from 'react'
import { pairNames, toForest } from '../../core/model'
import { encodePermalink } from '../../lib/permalink'
import { designerStore } from '../../stores/designerStore'
import { selectDoc } from '../../stores/selectors'
import { workspaceStore } from '../../stores/workspaceStore'

/** A link holding the forest and the scope: a colleague opens the same view, no server involved. */
export function PermalinkBox() {
  const [link, setLink] = useState<string | null>(null)
  const [copied, setCopied] = useState(false)
  const make = async () => {
    const doc = selectDoc(designerStore.getState())
    const names = pairNames(doc, doc)
    const url = `${location.origin}${location.pathname}#${encodePermalink({ name: workspaceStore.getState().name, forest: toForest(doc), ...names })}`
    setLink(url)
    try {
      await navigator.clipboard.writeText(url)
      setCopied(true)
    } catch {
      setCopied(false)
    }
  }
  return (
    <div className="permalink">
      <button type="button" className="btn btn--primary" onClick={() => void make()}>
        Copy link to this threat model
      </button>
      {link ? (
        <>
          <label className="field__label" htmlFor="permalink">
            {copied ? 'Copied. The link holds the forest and the scope:' : 'Select and copy the link:'}
          </label>
          <input id="permalink" className="input" readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
        </>
      ) : (
        <p className="muted">The link holds the whole forest and the scope in its #fragment, which never reaches a server.</p>
      )}
    </div>
  )
}
