import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { ImportInto } from '../../stores/forestImport'
import { importManifestUrl } from './targetImport'

/**
 * "Import from a target URL": inline, inside the Import menu, or on the empty forest's card (`id`, `className`).
 * `into`: a new workspace (the default) or this one's forest replaced.
 */
export function TargetUrlForm({
  onDone,
  into = 'new',
  id = 'target-url-import',
  className = 'menu__item menu__keep menu__form',
}: {
  onDone: (into: ImportInto) => void
  into?: ImportInto
  id?: string
  className?: string
}) {
  const [url, setUrl] = useState('http://127.0.0.1:8765')
  const [busy, setBusy] = useState(false)
  const client = useQueryClient()
  return (
    <form
      className={className}
      onSubmit={async (e) => {
        e.preventDefault()
        const menu = e.currentTarget.closest('details')
        setBusy(true)
        const ok = await importManifestUrl(url, client, into)
        setBusy(false)
        if (ok) {
          menu?.removeAttribute('open')
          onDone(into)
        }
      }}
    >
      <label className="field__label" htmlFor={id}>
        Target URL (GET /manifest)
      </label>
      <span className="menu__row">
        <input id={id} className="input" value={url} onChange={(e) => setUrl(e.target.value)} spellCheck={false} />
        <button type="submit" className="btn btn--primary" disabled={busy}>
          {busy ? 'Fetching…' : 'Import'}
        </button>
      </span>
    </form>
  )
}
