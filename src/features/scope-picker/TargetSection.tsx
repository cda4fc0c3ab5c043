import { useState } from 'react'
import { pairNames, toForest } from '../../core/model'
import type { Forest } from '../../core/tags'
import { parseJsonText, ForestFileError } from '../../lib/forestJson'
import { forestFromManifest, type Manifest } from '../../protocol/schemas'
import { ManifestError, parseManifest, targetBaseUrl, useTargetManifest } from '../../queries/targetManifest'
import { useDesigner } from '../../stores/designerStore'
import { lostSentence, replaceForest } from '../../stores/forestCommands'
import { notify } from '../../stores/noticeStore'
import { selectDoc } from '../../stores/selectors'
import { useWorkspace, workspaceStore } from '../../stores/workspaceStore'
import { OfferedView } from './OfferedView'
import { FileButton } from '../../components/FileButton'

/** Same tags under the same parents (descriptions and list order aside). */
function sameShape(a: Forest, b: Forest): boolean {
  const key = (f: Forest) => new Set(f.tags.map((t) => `${t.name}\u0000${t.parent ?? ''}`))
  const ka = key(a)
  const kb = key(b)
  return ka.size === kb.size && [...ka].every((k) => kb.has(k))
}

function ConnectForm() {
  const [url, setUrl] = useState('')
  return (
    <div className="connect">
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault()
          try {
            workspaceStore.getState().setTarget({ kind: 'url', url: targetBaseUrl(url) })
          } catch (err) {
            notify('error', (err as Error).message)
          }
        }}
      >
        <label className="sr-only" htmlFor="target-url">
          Target URL
        </label>
        <input
          id="target-url"
          className="input"
          placeholder="http://127.0.0.1:8765"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          spellCheck={false}
        />
        <button type="submit" className="btn" disabled={url.trim() === ''}>
          Connect
        </button>
      </form>
      <FileButton
        className="btn btn--file"
        accept=".json,application/json"
        ariaLabel="Connect a manifest file"
        onFile={async (file) => {
          try {
            const json = parseJsonText(await file.text())
            parseManifest(json, file.name)
            workspaceStore.getState().setTarget({ kind: 'file', fileName: file.name, manifest: json })
          } catch (err) {
            if (err instanceof ForestFileError || err instanceof ManifestError)
              notify('error', `${err instanceof ForestFileError ? `${file.name}: ` : ''}${err.message}`)
            else throw err
          }
        }}
      >
        or a manifest file…
      </FileButton>
    </div>
  )
}

/** The connected target (a Target-over-HTTP URL or a manifest file) and what the optimizer would be offered. */
/** The connected target's forest in place of this one (one undoable edit), naming saved threat models that lose tags. */
function takeTargetForest(manifest: Manifest): void {
  const { lost, workspace } = replaceForest(forestFromManifest(manifest))
  if (lost.length > 0)
    notify('info', `Replaced the forest of “${workspace}” with ${manifest.name}'s (Undo brings it back). ${lostSentence(lost)}`)
}

export function TargetSection() {
  const target = useWorkspace((s) => s.target)
  const { manifest, error, loading, source } = useTargetManifest()
  const doc = useDesigner(selectDoc)
  if (target === null) {
    return (
      <>
        <p className="muted">
          Connect a target to see exactly which controllables and observables the optimizer would be offered under this scope.
        </p>
        <ConnectForm />
      </>
    )
  }
  const names = pairNames(doc, doc)
  const sameForest = manifest !== null && sameShape(forestFromManifest(manifest), toForest(doc))
  return (
    <div className="target">
      <p className="target__head">
        <strong>{manifest?.name ?? 'Target'}</strong> <span className="muted">{source}</span>
        <button type="button" className="btn btn--small" onClick={() => workspaceStore.getState().setTarget(null)}>
          Disconnect
        </button>
      </p>
      {loading ? <p className="muted">Fetching the manifest…</p> : null}
      {error ? (
        <p className="finding finding--error" role="alert">
          {error}
        </p>
      ) : null}
      {manifest ? (
        <>
          {manifest.description ? <p className="muted">{manifest.description}</p> : null}
          {!sameForest ? (
            <p className="finding finding--warning">
              This forest differs from the target's. Granted tags are matched to the target's by name.{' '}
              <button type="button" className="link" onClick={() => takeTargetForest(manifest)}>
                Use the target's forest
              </button>
            </p>
          ) : null}
          <OfferedView manifest={manifest} scope={names.scope} readOnly={names.readOnly} />
        </>
      ) : null}
    </div>
  )
}
