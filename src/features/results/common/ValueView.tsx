import { useMemo, useState } from 'react'
import { countNodes, jsonCopyText, jsonTreeOf } from '../../../core/json'
import { JsonTree, UNFOLD_ALL_MAX, type FoldMode } from './JsonTree'
import { previewOf, RENDER_MAX_CHARS, valueText, visibleText } from './valueText'

interface Props {
  readonly label: string
  readonly value: unknown
  /** File name stem for "download the full value". */
  readonly fileStem: string
}

/** "Unfold all" is offered up to this many nodes (ten times what one subtree unfolds at once). */
const UNFOLD_ALL_OFFER = UNFOLD_ALL_MAX * 10

/**
 * One payload, always as text nodes. JSON (an object, an array, or a string
 * holding one, like a tool call's arguments) shows as a folding tree, with
 * the raw text one click away; other values as text. Long values start
 * collapsed behind an expander; past RENDER_MAX_CHARS only the start is
 * rendered and the whole value can be copied or downloaded, so a 10 MB string
 * never freezes the page.
 */
export function ValueView({ label, value, fileStem }: Props) {
  const [expanded, setExpanded] = useState(false)
  const [copied, setCopied] = useState<'idle' | 'done' | 'failed'>('idle')
  const text = useMemo(() => valueText(value), [value])
  const preview = useMemo(() => previewOf(text), [text])
  const huge = text.length > RENDER_MAX_CHARS
  const tree = useMemo(() => jsonTreeOf(value), [value])
  const [asText, setAsText] = useState(false)
  // Changing the fold mode remounts the tree (its key), so every node takes its starting state again.
  const [fold, setFold] = useState<{ mode: FoldMode; n: number }>({ mode: 'auto', n: 0 })
  const unfoldable = useMemo(() => (tree ? countNodes(tree.root, UNFOLD_ALL_OFFER) <= UNFOLD_ALL_OFFER : false), [tree])
  const showTree = tree !== null && !asText
  const shown = expanded ? visibleText(huge ? text.slice(0, RENDER_MAX_CHARS) : text) : preview.text

  const copy = () => {
    navigator.clipboard.writeText(showTree ? jsonCopyText(tree.root) : text).then(
      () => setCopied('done'),
      () => setCopied('failed'),
    )
  }
  const download = () => {
    const blob = new Blob([text], { type: 'text/plain;charset=utf-8' })
    const url = URL.createObjectURL(blob)
    const a = document.createElement('a')
    a.href = url
    a.download = `${fileStem}-${label}.txt`.replace(/[^A-Za-z0-9._-]+/g, '_')
    a.click()
    setTimeout(() => URL.revokeObjectURL(url), 1_000)
  }

  return (
    <div className="value">
      <div className="value__head">
        <span className="value__label">{label}</span>
        <span className="value__size">{text.length.toLocaleString('en-US')} chars</span>
        {showTree && tree.fromString && (
          <span className="json__badge" title="This value is a string that holds JSON; shown as a tree">
            JSON text
          </span>
        )}
        {tree && (
          <button
            type="button"
            className="linkish"
            aria-pressed={asText}
            onClick={() => setAsText(!asText)}
            title={tree.fromString ? 'This string holds JSON: shown as a tree' : undefined}
          >
            {asText ? 'Show as tree' : 'Show as text'}
          </button>
        )}
        {showTree && (
          <>
            <button
              type="button"
              className="linkish"
              onClick={() => setFold({ mode: 'open', n: fold.n + 1 })}
              disabled={!unfoldable}
              title={unfoldable ? undefined : 'Too big to unfold at once: unfold its parts'}
            >
              Unfold all
            </button>
            <button type="button" className="linkish" onClick={() => setFold({ mode: 'closed', n: fold.n + 1 })}>
              Fold all
            </button>
          </>
        )}
        {!showTree && (preview.cut || huge) && (
          <button type="button" className="linkish" aria-expanded={expanded} onClick={() => setExpanded(!expanded)}>
            {expanded ? 'Collapse' : 'Show all'}
          </button>
        )}
        {(showTree || text.length > 200) && (
          <button type="button" className="linkish" onClick={copy}>
            {copied === 'done' ? 'Copied' : copied === 'failed' ? 'Copy failed' : 'Copy'}
          </button>
        )}
        {(huge || text.length > 20_000) && (
          <button type="button" className="linkish" onClick={download}>
            Download full value
          </button>
        )}
      </div>
      {showTree ? (
        <div className="value__tree">
          <JsonTree key={fold.n} root={tree.root} fold={fold.mode} label={label} />
        </div>
      ) : (
        <pre className="value__text" data-testid="value-text">
          {shown}
          {!expanded && preview.cut ? '…' : ''}
        </pre>
      )}
      {!showTree && expanded && huge && (
        <p className="value__note">
          Showing the first {RENDER_MAX_CHARS.toLocaleString('en-US')} of {text.length.toLocaleString('en-US')} characters. Copy or download
          the full value.
        </p>
      )}
    </div>
  )
}
