/**
 * The designer's client state, built from slices (zustand): the document with
 * its undo history, the selection, and the interaction mode. Every document
 * change goes through `dispatch(edit)`, a typed ForestEdit applied by the pure
 * reducer in src/core/model, so undo/redo covers every edit, the scope
 * included. Derived values (coverage, findings, layout) are computed on read
 * in selectors.ts, never stored here.
 */
import { createStore, useStore, type StateCreator, type StoreApi } from 'zustand'
import {
  applyEdit,
  commit,
  EMPTY_DOC,
  redo,
  startHistory,
  undo,
  type DesignDoc,
  type ForestEdit,
  type History,
  type TagId,
} from '../core/model'

export type DesignerMode = 'design' | 'scope'

export interface DocSlice {
  history: History<DesignDoc>
  /** Applies an edit; returns false when it changed nothing (and records nothing). */
  dispatch: (edit: ForestEdit) => boolean
  undo: () => void
  redo: () => void
  /** Replaces the document and forgets the history (switching workspaces). */
  load: (doc: DesignDoc) => void
}

export interface SelectionSlice {
  selected: readonly TagId[]
  /** The tag whose name is being edited in place. */
  editing: TagId | null
  select: (ids: readonly TagId[], how?: 'replace' | 'toggle' | 'add') => void
  setEditing: (id: TagId | null) => void
}

export type SidePanel = 'tag' | 'scope' | 'models'

export interface ModeSlice {
  mode: DesignerMode
  setMode: (mode: DesignerMode) => void
  panel: SidePanel
  setPanel: (panel: SidePanel) => void
  helpOpen: boolean
  toggleHelp: () => void
  /** Draw every tag, even off screen (an image export is being taken). */
  renderAll: boolean
  setRenderAll: (on: boolean) => void
}

export type DesignerState = DocSlice & SelectionSlice & ModeSlice

const docSlice: StateCreator<DesignerState, [], [], DocSlice> = (set, get) => ({
  history: startHistory(EMPTY_DOC),
  dispatch: (edit) => {
    const h = get().history
    const next = applyEdit(h.present, edit)
    if (next === h.present) return false
    set({ history: commit(h, next) })
    return true
  },
  undo: () => set((s) => ({ history: undo(s.history), editing: null })),
  redo: () => set((s) => ({ history: redo(s.history), editing: null })),
  load: (doc) => set({ history: startHistory(doc), selected: [], editing: null }),
})

const selectionSlice: StateCreator<DesignerState, [], [], SelectionSlice> = (set) => ({
  selected: [],
  editing: null,
  select: (ids, how = 'replace') =>
    set((s) => {
      if (how === 'replace') return sameIds(s.selected, ids) ? s : { selected: [...ids] }
      if (how === 'add') return { selected: [...new Set([...s.selected, ...ids])] }
      const cur = new Set(s.selected)
      for (const id of ids)
        if (cur.has(id)) cur.delete(id)
        else cur.add(id)
      return { selected: [...cur] }
    }),
  setEditing: (editing) => set({ editing }),
})

const modeSlice: StateCreator<DesignerState, [], [], ModeSlice> = (set) => ({
  mode: 'design',
  // Picking a scope brings its panel forward; designing brings the tag inspector back.
  setMode: (mode) =>
    set((s) => ({
      mode,
      editing: null,
      panel: mode === 'scope' && s.panel === 'tag' ? 'scope' : mode === 'design' && s.panel === 'scope' ? 'tag' : s.panel,
    })),
  panel: 'tag',
  setPanel: (panel) => set({ panel }),
  helpOpen: false,
  toggleHelp: () => set((s) => ({ helpOpen: !s.helpOpen })),
  renderAll: false,
  setRenderAll: (renderAll) => set({ renderAll }),
})

function sameIds(a: readonly TagId[], b: readonly TagId[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i])
}

export function createDesignerStore(doc: DesignDoc = EMPTY_DOC): StoreApi<DesignerState> {
  const store = createStore<DesignerState>()((...a) => ({ ...docSlice(...a), ...selectionSlice(...a), ...modeSlice(...a) }))
  if (doc !== EMPTY_DOC) store.getState().load(doc)
  return store
}

/** The app's one designer. */
export const designerStore = createDesignerStore()

export function useDesigner<T>(selector: (s: DesignerState) => T): T {
  return useStore(designerStore, selector)
}
