/**
 * The open workspace's own data besides its document (which lives in the
 * designer store): name, saved threat models, connected target; and the list
 * of all workspaces for the switcher. Writing to disk is the autosave's job
 * (workspaceService.ts), which subscribes to both stores.
 */
import { createStore, useStore, type StoreApi } from 'zustand'
import type { ScopePair } from '../core/model'
import { newModelId } from './ids'
import type { SavedModel, TargetRef, WorkspaceId, WorkspaceSummary } from './workspaceTypes'

export interface WorkspaceState {
  workspaces: readonly WorkspaceSummary[]
  activeId: WorkspaceId | null
  name: string
  createdAt: number
  models: readonly SavedModel[]
  target: TargetRef
  setName: (name: string) => void
  setTarget: (target: TargetRef) => void
  saveModel: (name: string, pair: ScopePair, notes?: string) => SavedModel
  updateModel: (id: string, patch: Partial<Pick<SavedModel, 'name' | 'notes' | 'scope' | 'readOnly'>>) => void
  deleteModel: (id: string) => void
}

export function createWorkspaceStore(): StoreApi<WorkspaceState> {
  return createStore<WorkspaceState>()((set) => ({
    workspaces: [],
    activeId: null,
    name: '',
    createdAt: 0,
    models: [],
    target: null,
    setName: (name) => set({ name }),
    setTarget: (target) => set({ target }),
    saveModel: (name, pair, notes = '') => {
      const model: SavedModel = { id: newModelId(), name, scope: [...pair.scope], readOnly: [...pair.readOnly], notes, savedAt: Date.now() }
      set((s) => ({ models: [...s.models, model] }))
      return model
    },
    updateModel: (id, patch) => set((s) => ({ models: s.models.map((m) => (m.id === id ? { ...m, ...patch } : m)) })),
    deleteModel: (id) => set((s) => ({ models: s.models.filter((m) => m.id !== id) })),
  }))
}

export const workspaceStore = createWorkspaceStore()

export function useWorkspace<T>(selector: (s: WorkspaceState) => T): T {
  return useStore(workspaceStore, selector)
}
