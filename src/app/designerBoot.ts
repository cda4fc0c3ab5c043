/**
 * Loads the designer before its first paint: opens the workspaces in
 * IndexedDB (seeding the chatbot forest on a first visit), starts the
 * autosave, and opens a shared link (#share=...) as a new workspace. The page
 * suspends on this promise, so no component ever sees a half-loaded state.
 */
import { docFromForest } from '../core/model'
import { demoWorkspace } from './demoWorkspace'
import { decodePermalink, PermalinkError, permalinkPayload } from '../lib/permalink'
import { designerStore } from '../stores/designerStore'
import { newTagId } from '../stores/ids'
import { notify, noticeStore } from '../stores/noticeStore'
import { openWorkspaceRepo } from '../stores/workspaceRepo'
import { createWorkspaceService, describeSaveError, serviceRef, type WorkspaceService } from '../stores/workspaceService'
import { workspaceStore } from '../stores/workspaceStore'

async function openSharedLink(service: WorkspaceService): Promise<void> {
  const payload = permalinkPayload(location.hash)
  if (payload === null) return
  // The link has done its job once read: a reload shows the saved workspace, not a second copy.
  history.replaceState(null, '', `${location.pathname}${location.search}`)
  try {
    const shared = decodePermalink(payload)
    await service.create(shared.name, docFromForest(shared.forest, newTagId, { scope: shared.scope, readOnly: shared.readOnly }))
    if (shared.scope.length + shared.readOnly.length > 0) designerStore.getState().setMode('scope')
    notify('info', `Opened the shared threat model “${shared.name}” as a new workspace.`)
  } catch (e) {
    if (e instanceof PermalinkError) notify('error', e.message)
    else throw e
  }
}

/**
 * Autosave right after the frame that shows an edit, so a click paints first:
 * putting a 5,000-tag record into IndexedDB clones it on the main thread. A
 * hidden tab paints no frames, so a timer stands in.
 */
function afterNextPaint(run: () => void): void {
  let done = false
  const once = () => {
    if (done) return
    done = true
    run()
  }
  requestAnimationFrame(() => setTimeout(once, 0))
  setTimeout(once, 100)
}

async function boot(): Promise<void> {
  let repo
  try {
    repo = await openWorkspaceRepo()
  } catch (e) {
    throw new Error(`This browser refused to open local storage (IndexedDB), so nothing could be saved: ${(e as Error).message}`, {
      cause: e,
    })
  }
  const service = createWorkspaceService(
    repo,
    designerStore,
    workspaceStore,
    {
      onSaveError: (e) => notify('error', describeSaveError(e)),
      onSaveRecovered: () => {
        noticeStore.setState((s) => ({ notices: s.notices.filter((n) => !n.text.startsWith('Not saved')) }))
        notify('info', 'Saved again: everything in this workspace is on disk.')
      },
    },
    afterNextPaint,
  )
  serviceRef.current = service
  const { damaged } = await service.boot(() => demoWorkspace())
  if (damaged.length > 0)
    notify(
      'error',
      `${damaged.length} saved workspace${damaged.length === 1 ? '' : 's'} could not be read and ${damaged.length === 1 ? 'was' : 'were'} left untouched on disk (${damaged.join(', ')}).`,
    )
  await openSharedLink(service)
  window.addEventListener('hashchange', () => void openSharedLink(service))
  // Writes already started finish even as the page goes; this starts the one still waiting for a frame.
  window.addEventListener('pagehide', () => void service.flush())
}

let ready: Promise<void> | null = null

export function designerReady(): Promise<void> {
  ready ??= boot()
  return ready
}
