import { useMemo, useState } from 'react'
import { previewOf, RENDER_MAX_CHARS, valueText, visibleText } from './valueText'

interface Props {
  readonly label: string
  readonly value: unknown
  /** File name stem for "download the full value". */
  readonly fileStem: string
}

/**
 * One payload, always as a text node. Long values start collapsed behind an
 * expander; past RENDER_MAX_CHARS only the start is rendered and the whole
 * value can be copied or downloaded, so a 10 MB string never freezes the page.
 */
export function ValueView({ label, value, fileStem }: Props) {
  const [expanded, setExpanded] = useState(false)
  const [copied, setCopied] = useState<'idle' | 'done' | 'failed'>('idle')
  const text = useMemo(() => valueText(value), [value])
  const preview = useMemo(() => previewOf(text), [text])
  const huge = text.length > RENDER_MAX_CHARS
  const shown = expanded ? visibleText(huge ? text.slice(0, RENDER_MAX_CHARS) : text) : preview.text

  const copy = () => {
    navigator.clipboard.writeText(text).then(() => setCopied('done'), () => setCopied('failed'))
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
        {(preview.cut || huge) && (
          <button type="button" className="linkish" aria-expanded={expanded} onClick={() => setExpanded(!expanded)}>
            {expanded ? 'Collapse' : 'Show all'}
          </button>
        )}
        {text.length > 200 && <button type="button" className="linkish" onClick={copy}>{copied === 'done' ? 'Copied' : copied === 'failed' ? 'Copy failed' : 'Copy'}</button>}
        {(huge || text.length > 20_000) && <button type="button" className="linkish" onClick={download}>Download full value</button>}
      </div>
      <pre className="value__text" data-testid="value-text">{shown}{!expanded && preview.cut ? '…' : ''}</pre>
      {expanded && huge && (
        <p className="value__note">
          Showing the first {RENDER_MAX_CHARS.toLocaleString('en-US')} of {text.length.toLocaleString('en-US')} characters. Copy or download the full value.
        </p>
      )}
    </div>
  )
}
