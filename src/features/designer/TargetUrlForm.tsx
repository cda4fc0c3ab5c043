import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { importManifestUrl } from './targetImport'

/** "Import from a target URL": inline, inside the Import menu. */
export function TargetUrlForm({ onDone }: { onDone: () => void }) {
  const [url, setUrl] = useState('http://127.0.0.1:8765')
  const [busy, setBusy] = useState(false)
  const client = useQueryClient()
  return (
    <form className="menu__item menu__keep menu__form"
      onSubmit={async (e) => {
        e.preventDefault()
        const menu = e.currentTarget.closest('details')
        setBusy(true)
        const ok = await importManifestUrl(url, client)
        setBusy(false)
        if (ok) {
          menu?.removeAttribute('open')
          onDone()
        }
      }}>
      <label className="field__label" htmlFor="target-url-import">Target URL (GET /manifest)</label>
      <span className="menu__row">
        <input id="target-url-import" className="input" value={url} onChange={(e) => setUrl(e.target.value)} spellCheck={false} />
        <button type="submit" className="btn btn--primary" disabled={busy}>{busy ? 'Fetching…' : 'Import'}</button>
      </span>
    </form>
  )
}
