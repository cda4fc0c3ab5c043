/**
 * How the designer draws the forest, apart from the forest itself: which way
 * the trees grow and which subtrees are folded. Neither is an edit (no undo,
 * nothing saved in the workspace). The direction is a preference of the user,
 * kept in localStorage; folds are kept for this visit by tag id, so a fold
 * in one workspace never touches another's tags (their ids differ).
 */
import { createStore, useStore } from 'zustand'
import { z } from 'zod'
import type { TagId } from '../core/model'
import type { LayoutDirection } from '../features/designer/forestLayout'

const KEY = 'redscope.canvasDirection'
const DirectionSchema = z.enum(['down', 'right'])

function storedDirection(): LayoutDirection {
  try {
    const parsed = DirectionSchema.safeParse(globalThis.localStorage?.getItem(KEY))
    return parsed.success ? parsed.data : 'down'
  } catch {
    return 'down' // storage blocked (private mode, file://): the default
  }
}

export interface CanvasViewState {
  direction: LayoutDirection
  folded: ReadonlySet<TagId>
  setDirection: (d: LayoutDirection) => void
  toggleFold: (id: TagId) => void
  unfoldAll: () => void
}

export const canvasViewStore = createStore<CanvasViewState>((set) => ({
  direction: storedDirection(),
  folded: new Set(),
  setDirection: (direction) => {
    try { globalThis.localStorage?.setItem(KEY, direction) } catch { /* not kept: still applied for this visit */ }
    set({ direction })
  },
  toggleFold: (id) => set((s) => {
    const next = new Set(s.folded)
    if (next.has(id)) next.delete(id); else next.add(id)
    return { folded: next }
  }),
  unfoldAll: () => set((s) => (s.folded.size === 0 ? s : { folded: new Set() })),
}))

export const useCanvasView = <T,>(pick: (s: CanvasViewState) => T): T => useStore(canvasViewStore, pick)
