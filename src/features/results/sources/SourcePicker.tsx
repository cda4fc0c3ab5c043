import { useState, type DragEvent } from 'react'
import type { OpenSource } from '../sourcesStore'
import { sourceFromDrop, sourceFromFolder, sourceFromIndexedDb, sourceFromUrl, sourceFromZip } from './openSource'
import { FileButton } from '../../../components/FileButton'

interface Props {
  readonly onOpened: (source: OpenSource) => void
  /** When a link needs a particular folder or zip, say which. */
  readonly expected?: string
}

// React's input type has no `webkitdirectory`; a spread passes it to the DOM as is.
const folderAttributes = { webkitdirectory: '', directory: '' }

/** Every way to open results: a folder (pick or drop), a zip, or a superred serve address. */
export function SourcePicker({ onOpened, expected }: Props) {
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [url, setUrl] = useState('')
  const [dragging, setDragging] = useState(false)

  const run = async (open: () => OpenSource | Promise<OpenSource>) => {
    setError(null)
    setBusy(true)
    try {
      onOpened(await open())
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    } finally {
      setBusy(false)
    }
  }
  const onDrop = (e: DragEvent) => {
    e.preventDefault()
    setDragging(false)
    // Start reading synchronously: the DataTransfer empties after this handler.
    const pending = sourceFromDrop(e.dataTransfer)
    void run(() => pending)
  }

  return (
    <section
      className={`source-picker${dragging ? ' source-picker--drag' : ''}`}
      aria-label="Open results"
      onDragOver={(e) => {
        e.preventDefault()
        setDragging(true)
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <h2>Open results</h2>
      {expected && (
        <p className="source-picker__expected">
          This link points into <strong>{expected}</strong>. Open it again to continue to the same place.
        </p>
      )}
      <div className="source-picker__ways">
        <button type="button" onClick={() => void run(() => sourceFromIndexedDb())}>
          This browser's runs
        </button>
        <label className="button">
          Open a results folder…
          <input
            type="file"
            multiple
            hidden
            aria-label="Results folder"
            data-testid="folder-input"
            {...folderAttributes}
            onChange={(e) => {
              const files = e.currentTarget.files
              if (files) void run(() => sourceFromFolder(files))
            }}
          />
        </label>
        <FileButton
          className="button"
          accept=".zip,application/zip"
          hidden
          ariaLabel="Results zip"
          testId="zip-input"
          onFile={(file) => run(() => sourceFromZip(file))}
        >
          Open a zip…
        </FileButton>
        <form
          className="source-picker__url"
          onSubmit={(e) => {
            e.preventDefault()
            void run(() => sourceFromUrl(url))
          }}
        >
          <input
            type="url"
            placeholder="http://127.0.0.1:8000/ (superred serve)"
            aria-label="superred serve address"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
          <button type="submit" disabled={url.trim() === ''}>
            Open address
          </button>
        </form>
      </div>
      <p className="source-picker__hint">…or drop a results folder or a .zip of it here. Files are read in this page and never uploaded.</p>
      {busy && <p role="status">Opening…</p>}
      {error && (
        <p className="results-error" role="alert">
          {error}
        </p>
      )}
    </section>
  )
}
