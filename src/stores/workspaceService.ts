/**
 * Opens, creates, switches and deletes workspaces, and autosaves the open one:
 * every change of the document (scope and read_only included), of its name,
 * saved threat models or target is written to the repository when the
 * scheduler says (the app: right after the frame that shows the change; by
 * default: within the same tick), coalesced to one write per turn. flush()
 * writes what is pending at once. Nothing is lost on reload or crash beyond
 * the frame in flight.
 */
import type { StoreApi } from 'zustand'
import { EMPTY_DOC, type DesignDoc } from '../core/model'
import type { DesignerState } from './designerStore'
import { newWorkspaceId } from './ids'
import { WORKSPACE_VERSION } from './workspaceMigrations'
import type { WorkspaceRepo } from './workspaceRepo'
import type { WorkspaceState } from './workspaceStore'
import { newRecord, summaryOf, type SavedModel, type TargetRef, type WorkspaceId, type WorkspaceRecord } from './workspaceTypes'

/** The name of a workspace nobody has named yet. */
export const UNTITLED = 'Untitled workspace'

export interface WorkspaceService {
  /** Loads the workspaces; creates the first one from `seed` when there are none. */
  boot(seed: () => WorkspaceSeed): Promise<{ damaged: string[] }>
  /** A new workspace, opened: the list's last entry. */
  create(name: string, doc: DesignDoc, models?: readonly SavedModel[], target?: TargetRef): Promise<WorkspaceId>
  open(id: WorkspaceId): Promise<void>
  remove(id: WorkspaceId): Promise<void>
  rename(id: WorkspaceId, name: string): Promise<void>
  /** A workspace as it is now, without opening it: the open one with its latest edits, any other from disk. */
  read(id: WorkspaceId): Promise<WorkspaceRecord | undefined>
  /** Resolves when everything changed so far is on disk. */
  flush(): Promise<void>
  /** Stops autosaving (tests). */
  stop(): void
}

/** What a first visit starts with: a forest, and optionally threat models ready to run. */
export interface WorkspaceSeed {
  name: string
  doc: DesignDoc
  models?: readonly SavedModel[]
}

export interface SaveProblems {
  /** An autosave failed (storage full, storage revoked): the user must be told, the edit is still in memory. */
  onSaveError(error: unknown): void
  /** A save worked again after a failure. */
  onSaveRecovered?(): void
}

/** The words for a failed save: a full storage is named as such, with what to do. */
export function describeSaveError(error: unknown): string {
  const name = (error as { name?: string })?.name
  const message = (error as { message?: string })?.message ?? String(error)
  if (name === 'QuotaExceededError' || /quota/i.test(message)) {
    return (
      "Not saved: this browser's storage for redscope is full (QuotaExceededError). Your edits are kept in this tab only: " +
      'delete old workspaces or results in this browser, or export the forest, and the next edit is saved again.'
    )
  }
  return `Not saved: the browser refused to write the workspace (${name ?? 'Error'}: ${message}). Your edits are kept in this tab only.`
}

/**
 * When a coalesced autosave runs. Putting a record into IndexedDB clones it on
 * the main thread (about 1-2 ms for 5,000 tags, stored as one text: see
 * storedRecord), so the app runs it after the frame that shows an edit rather
 * than before (see designerBoot).
 */
export type SaveScheduler = (run: () => void) => void

export function createWorkspaceService(
  repo: WorkspaceRepo,
  designer: StoreApi<DesignerState>,
  workspaces: StoreApi<WorkspaceState>,
  problems: SaveProblems = { onSaveError: (e) => console.error(describeSaveError(e)) },
  schedule: SaveScheduler = queueMicrotask,
): WorkspaceService {
  let scheduled = false
  let failing = false
  let lastWrite: Promise<void> = Promise.resolve()
  // The document as last written or loaded: opening a workspace is not an edit.
  let onDisk: DesignDoc | null = null

  const current = (): WorkspaceRecord | null => {
    const w = workspaces.getState()
    if (w.activeId === null) return null
    return {
      v: WORKSPACE_VERSION,
      id: w.activeId,
      name: w.name,
      doc: designer.getState().history.present as WorkspaceRecord['doc'],
      models: [...w.models],
      target: w.target,
      createdAt: w.createdAt,
      updatedAt: Date.now(),
    }
  }
  /** The pending save, if any; run by the scheduler or by flush, whichever comes first. */
  const write = () => {
    if (!scheduled) return
    scheduled = false
    const record = current()
    if (!record) return
    onDisk = record.doc
    // Each write is its own transaction, started at once; IndexedDB applies them in order.
    // A failed write is reported, never silent, and leaves the document marked unsaved.
    lastWrite = repo.put(record).then(
      () => {
        if (!failing) return
        failing = false
        problems.onSaveRecovered?.()
      },
      (error: unknown) => {
        if (onDisk === record.doc) onDisk = null
        failing = true
        problems.onSaveError(error)
      },
    )
    workspaces.setState((s) => ({ workspaces: s.workspaces.map((x) => (x.id === record.id ? summaryOf(record) : x)) }))
  }
  const save = () => {
    if (scheduled) return
    scheduled = true
    schedule(write)
  }

  const unsubs = [
    designer.subscribe((s, prev) => {
      if (s.history.present !== prev.history.present && s.history.present !== onDisk) save()
    }),
    workspaces.subscribe((s, prev) => {
      if (s.activeId === prev.activeId && (s.name !== prev.name || s.models !== prev.models || s.target !== prev.target)) save()
    }),
  ]

  const show = (r: WorkspaceRecord) => {
    onDisk = r.doc
    workspaces.setState({ activeId: r.id, name: r.name, createdAt: r.createdAt, models: r.models, target: r.target })
    designer.getState().load(r.doc)
  }
  const flush = async () => {
    write()
    await lastWrite
  }

  const create = async (name: string, doc: DesignDoc, models: readonly SavedModel[] = [], target: TargetRef = null) => {
    await flush()
    // Creation time orders the list: strictly increasing, even within one millisecond.
    const latest = Math.max(0, ...workspaces.getState().workspaces.map((w) => w.createdAt))
    const r = { ...newRecord(newWorkspaceId(), name, doc, Math.max(Date.now(), latest + 1)), models: [...models], target }
    await repo.put(r)
    await repo.setActive(r.id)
    workspaces.setState((s) => ({ workspaces: [...s.workspaces, summaryOf(r)] }))
    show(r)
    return r.id
  }

  return {
    async boot(seed) {
      const { records, damaged } = await repo.list()
      if (records.length === 0) {
        const s = seed()
        await create(s.name, s.doc, s.models)
        return { damaged }
      }
      workspaces.setState({ workspaces: records.map(summaryOf) })
      const activeId = await repo.getActive()
      show(records.find((r) => r.id === activeId) ?? records[records.length - 1])
      return { damaged }
    },
    create,
    async open(id) {
      if (workspaces.getState().activeId === id) return
      await flush()
      const r = await repo.get(id)
      if (!r) throw new Error(`Workspace ${id} could not be read.`)
      await repo.setActive(id)
      show(r)
    },
    async remove(id) {
      await flush()
      await repo.delete(id)
      const rest = workspaces.getState().workspaces.filter((w) => w.id !== id)
      workspaces.setState({ workspaces: rest })
      if (workspaces.getState().activeId === id) {
        workspaces.setState({ activeId: null })
        const next = rest.length > 0 ? await repo.get(rest[rest.length - 1].id) : undefined
        if (next) {
          await repo.setActive(next.id)
          show(next)
        } else await create(UNTITLED, EMPTY_DOC)
      }
    },
    async rename(id, name) {
      if (workspaces.getState().activeId === id) {
        workspaces.getState().setName(name)
        return
      }
      const r = await repo.get(id)
      if (!r) return
      const next = { ...r, name, updatedAt: Date.now() }
      await repo.put(next)
      workspaces.setState((s) => ({ workspaces: s.workspaces.map((x) => (x.id === id ? summaryOf(next) : x)) }))
    },
    async read(id) {
      if (workspaces.getState().activeId === id) return current() ?? undefined
      return repo.get(id)
    },
    flush,
    stop() {
      unsubs.forEach((u) => u())
    },
  }
}

/** The app's service, set once at boot (src/app/boot.ts). */
export const serviceRef: { current: WorkspaceService | null } = { current: null }

export function workspaceService(): WorkspaceService {
  if (!serviceRef.current) throw new Error('workspaces are not loaded yet')
  return serviceRef.current
}
