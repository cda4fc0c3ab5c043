import { useReactFlow } from '@xyflow/react'
import { useState } from 'react'
import { designerStore, useDesigner } from '../../stores/designerStore'
import { notify } from '../../stores/noticeStore'
import { useWorkspace, workspaceStore } from '../../stores/workspaceStore'
import { downloadUrl, safeFileName } from '../../lib/download'
import { addChild, addRoot, deleteCount, deleteTags, liveSelection } from './designerActions'
import { renderDiagram } from './exportImage'
import { exportForestJson, exportPython, importForestFile, type ImportKind } from './files'
import type { ImportInto } from '../../stores/forestImport'
import { Menu } from '../../components/Menu'
import { loadTemplate, TEMPLATES } from './templates'
import { useFitView } from './useFitView'
import { canvasViewStore, useCanvasView } from '../../stores/canvasViewStore'
import { importManifestFile } from './targetImport'
import { TargetUrlForm } from './TargetUrlForm'
import { plural } from '../../lib/plural'
import { FileButton } from '../../components/FileButton'

type ImportDone = (into: ImportInto) => void

function FileItem({
  label,
  accept,
  kind,
  into,
  onDone,
}: {
  label: string
  accept: string
  kind: ImportKind
  into: ImportInto
  onDone: ImportDone
}) {
  return (
    <FileButton
      className="menu__item menu__file"
      accept={accept}
      ariaLabel={label}
      closesMenu
      onFile={async (file) => {
        if (await importForestFile(file, kind, into)) onDone(into)
      }}
    >
      {label}
    </FileButton>
  )
}

/**
 * A template replaces the whole forest: over a forest that has tags, it says
 * so and asks first (undo would bring the forest back, but nobody should
 * need to know that to stay safe).
 */
function TemplateItem({ template, onDone }: { template: keyof typeof TEMPLATES; onDone: () => void }) {
  const t = TEMPLATES[template]
  const [asking, setAsking] = useState(false)
  const tagCount = useDesigner((st) => st.history.present.tags.length)
  const workspace = useWorkspace((st) => st.name)
  const load = () => {
    setAsking(false)
    loadTemplate(template)
    onDone()
  }
  if (asking) {
    return (
      <div className="menu__confirm" role="alertdialog" aria-label={`Replace the forest with the ${t.label} template?`}>
        <p>
          The {t.label} template replaces the {tagCount} tag{tagCount === 1 ? '' : 's'} of “{workspace}” and clears its scope (Undo brings
          them back).
        </p>
        <div className="menu__confirm-actions">
          <button type="button" className="menu__item menu__danger" onClick={load}>
            Replace the forest
          </button>
          <button type="button" className="menu__item menu__keep" onClick={() => setAsking(false)}>
            Cancel
          </button>
        </div>
      </div>
    )
  }
  return (
    <button
      type="button"
      className={`menu__item${tagCount > 0 ? ' menu__keep' : ''}`}
      onClick={() => (tagCount > 0 ? setAsking(true) : load())}
    >
      <strong>{t.label} template</strong>{' '}
      <span className="menu__hint">
        {t.blurb}
        {tagCount > 0 ? '; replaces the current forest' : ''}
      </span>
    </button>
  )
}

/**
 * Where the next import goes. A new workspace unless the user picks this one, and then only for that import:
 * replacing is a choice made each time, never a setting left on.
 */
function IntoChoice({ into, setInto }: { into: ImportInto; setInto: (into: ImportInto) => void }) {
  const workspace = useWorkspace((st) => st.name)
  return (
    <fieldset className="menu__into">
      <legend className="menu__heading">Import into</legend>
      <label className="menu__choice">
        <input type="radio" name="import-into" checked={into === 'new'} onChange={() => setInto('new')} />a new workspace, named after what
        is imported
      </label>
      <label className="menu__choice">
        <input type="radio" name="import-into" checked={into === 'replace'} onChange={() => setInto('replace')} />
        <span>
          “{workspace}”: replace this workspace's forest{' '}
          <span className="menu__hint">(saved threat models that lose tags are named; Undo brings it back)</span>
        </span>
      </label>
    </fieldset>
  )
}

const nextFrame = () => new Promise((r) => requestAnimationFrame(() => r(null)))

/** Mode switch, common edits, undo/redo, view, templates, import and export. */
export function DesignerToolbar() {
  const mode = useDesigner((s) => s.mode)
  const canUndo = useDesigner((s) => s.history.past.length > 0)
  const canRedo = useDesigner((s) => s.history.future.length > 0)
  const selectedCount = useDesigner((s) => s.selected.length)
  const helpOpen = useDesigner((st) => st.helpOpen)
  const flow = useReactFlow()
  const fit = useFitView()
  const direction = useCanvasView((v) => v.direction)
  const foldedCount = useCanvasView((v) => v.folded.size)
  const density = useCanvasView((v) => v.density)
  const s = designerStore.getState
  const [into, setInto] = useState<ImportInto>('new')
  const imported: ImportDone = (how) => {
    if (how === 'replace') setInto('new')
    fit()
  }

  const exportImage = async (kind: 'svg' | 'png') => {
    const viewport = document.querySelector<HTMLElement>('.forest-canvas .react-flow__viewport')
    if (!viewport) return
    // The picture is of the forest, not of this session: no selection ring, no focus ring in it.
    const selected = s().selected
    s().select([])
    if (document.activeElement instanceof HTMLElement && document.activeElement.closest('.forest-canvas')) document.activeElement.blur()
    s().setRenderAll(true)
    try {
      await nextFrame()
      await nextFrame()
      const url = await renderDiagram(kind, viewport, flow.getNodes())
      downloadUrl(`${safeFileName(workspaceStore.getState().name)}.${kind}`, url)
    } catch (e) {
      notify('error', `The ${kind.toUpperCase()} export failed: ${(e as Error).message}`)
    } finally {
      s().setRenderAll(false)
      s().select(selected)
    }
  }

  return (
    <div className="toolbar" role="toolbar" aria-label="Designer">
      <div className="segmented" role="radiogroup" aria-label="Mode">
        <button
          type="button"
          role="radio"
          aria-checked={mode === 'design'}
          className="segmented__item"
          onClick={() => s().setMode('design')}
          title="Draw the forest: add, rename, drag to reparent (M)"
        >
          Design forest
        </button>
        <button
          type="button"
          role="radio"
          aria-checked={mode === 'scope'}
          className="segmented__item"
          onClick={() => s().setMode('scope')}
          title="Click tags to grant them: not granted → read & write → read only (M)"
        >
          Pick scope
        </button>
      </div>
      <span className="toolbar__sep" />
      <button type="button" className="btn" onClick={() => addRoot()} title="Add a new root (N)">
        + Root
      </button>
      <button
        type="button"
        className="btn"
        onClick={() => addChild()}
        disabled={selectedCount !== 1}
        title="Add a child to the selected tag (Tab)"
      >
        + Child
      </button>
      <button
        type="button"
        className="btn"
        disabled={selectedCount === 0}
        title="Delete the selected tags and everything under them (Delete); undo brings them back"
        aria-label={selectedCount > 0 ? `Delete ${plural(deleteCount(liveSelection()), 'tag')}` : 'Delete'}
        onClick={() => deleteTags()}
      >
        Delete
      </button>
      <span className="toolbar__sep" />
      <button
        type="button"
        className="btn btn--icon"
        onClick={() => s().undo()}
        disabled={!canUndo}
        title="Undo (Ctrl+Z)"
        aria-label="Undo"
      >
        ↶
      </button>
      <button
        type="button"
        className="btn btn--icon"
        onClick={() => s().redo()}
        disabled={!canRedo}
        title="Redo (Ctrl+Shift+Z)"
        aria-label="Redo"
      >
        ↷
      </button>
      <button type="button" className="btn btn--icon" onClick={fit} title="Fit the forest to the view (F)" aria-label="Fit to view">
        ⤢
      </button>
      <button
        type="button"
        className="btn btn--icon"
        aria-pressed={direction === 'right'}
        aria-label={direction === 'right' ? 'Layout: left to right (switch to top down)' : 'Layout: top down (switch to left to right)'}
        title={
          direction === 'right'
            ? 'Trees grow left to right: a wide forest becomes a tall one. Click for top down.'
            : 'Trees grow top down. Click for left to right: a wide forest becomes a tall one.'
        }
        onClick={() => {
          canvasViewStore.getState().setDirection(direction === 'right' ? 'down' : 'right')
          fit()
        }}
      >
        {direction === 'right' ? '⇥' : '⤓'}
      </button>
      <button
        type="button"
        className="btn btn--icon"
        aria-pressed={density === 'compact'}
        aria-label={density === 'compact' ? 'Compact tags: names only (switch to full tags)' : 'Full tags (switch to compact: names only)'}
        title={
          density === 'compact'
            ? 'Compact: each tag shows its name and grant; its description and notes are in the tooltip and the inspector. Click for full tags.'
            : 'Full tags: name, description, grant and notes. Click for compact tags, so a wide forest fits at a readable size.'
        }
        onClick={() => {
          canvasViewStore.getState().setDensity(density === 'compact' ? 'normal' : 'compact')
          fit()
        }}
      >
        {density === 'compact' ? '☰' : '▭'}
      </button>
      {foldedCount > 0 ? (
        <button
          type="button"
          className="btn btn--icon"
          onClick={() => {
            canvasViewStore.getState().unfoldAll()
            fit()
          }}
          title={`Unfold all: show the ${foldedCount === 1 ? 'folded subtree' : `${foldedCount} folded subtrees`} again`}
          aria-label="Unfold all"
        >
          ⊞
        </button>
      ) : null}
      <span className="toolbar__sep" />
      {/* Where it goes, then files: importing one's own system is the common case; a template replaces the forest, so it asks. */}
      <Menu label="Import">
        <IntoChoice into={into} setInto={setInto} />
        <FileItem label="FOREST.json file" accept=".json,application/json" kind="json" into={into} onDone={imported} />
        <FileItem label="superred security_tags.py" accept=".py,text/x-python,text/plain" kind="python" into={into} onDone={imported} />
        <FileButton
          className="menu__item menu__file"
          accept=".json,application/json"
          ariaLabel="Target manifest file"
          closesMenu
          onFile={async (file) => {
            if (await importManifestFile(file, into)) imported(into)
          }}
        >
          Target manifest file
        </FileButton>
        <TargetUrlForm into={into} onDone={imported} />
        <p className="menu__heading">Replace the forest with a template</p>
        {Object.keys(TEMPLATES).map((key) => (
          <TemplateItem key={key} template={key as keyof typeof TEMPLATES} onDone={fit} />
        ))}
      </Menu>
      <Menu label="Export">
        <button type="button" className="menu__item" onClick={exportForestJson}>
          FOREST.json
        </button>
        <button type="button" className="menu__item" onClick={exportPython}>
          security_tags.py (superred)
        </button>
        <button type="button" className="menu__item" onClick={() => void exportImage('svg')}>
          Diagram as SVG
        </button>
        <button type="button" className="menu__item" onClick={() => void exportImage('png')}>
          Diagram as PNG
        </button>
      </Menu>
      <span className="toolbar__spacer" />
      <button
        type="button"
        className="btn btn--ghost"
        onClick={() => s().toggleHelp()}
        aria-expanded={helpOpen}
        title="Keyboard shortcuts (?)"
        aria-label="Keyboard shortcuts"
      >
        ?
      </button>
    </div>
  )
}
