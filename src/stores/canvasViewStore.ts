/**
 * How the designer draws the forest, apart from the forest itself: which way
 * the trees grow and which subtrees are folded. Neither is an edit (no undo,
 * nothing saved in the workspace). The direction is a preference of the user,
 * kept in localStorage; folds are kept for this visit by tag id, so a fold
 * in one workspace never touches another's tags (their ids differ). The density
 * is picked by the fit (compact when the normal one would draw names too small
 * to read) until the user picks one with the toolbar toggle.
 */
import { createStore, useStore } from 'zustand'
import { z } from 'zod'
import type { TagId } from '../core/model'
import type { Density, LayoutDirection } from '../core/layout/forestLayout'

const KEY = 'redscope.canvasDirection'
const DirectionSchema = z.enum(['down', 'right'])

/** The direction the user chose on an earlier visit, if any. */
function storedDirection(): LayoutDirection | null {
  try {
    const parsed = DirectionSchema.safeParse(globalThis.localStorage?.getItem(KEY))
    return parsed.success ? parsed.data : null
  } catch {
    return null // storage blocked (private mode, file://): the default
  }
}
const stored = storedDirection()

export interface CanvasViewState {
  direction: LayoutDirection
  folded: ReadonlySet<TagId>
  density: Density
  /** True once the user picked the density: the fit then keeps it. */
  densityPinned: boolean
  /** True once the user turned the layout (now or on an earlier visit): the fit then never turns it for them. */
  directionPinned: boolean
  /** The fit's own choice: applied for this visit, not kept as the user's preference. */
  autoView: (v: { density: Density; direction: LayoutDirection }) => void
  setDensity: (d: Density) => void
  setDirection: (d: LayoutDirection) => void
  toggleFold: (id: TagId) => void
  unfoldAll: () => void
}

export const canvasViewStore = createStore<CanvasViewState>((set) => ({
  direction: stored ?? 'down',
  folded: new Set(),
  density: 'normal',
  densityPinned: false,
  directionPinned: stored !== null,
  autoView: ({ density, direction }) => set((s) => (s.density === density && s.direction === direction ? s : { density, direction })),
  setDensity: (density) => set({ density, densityPinned: true }),
  setDirection: (direction) => {
    try {
      globalThis.localStorage?.setItem(KEY, direction)
    } catch {
      /* not kept: still applied for this visit */
    }
    set({ direction, directionPinned: true })
  },
  toggleFold: (id) =>
    set((s) => {
      const next = new Set(s.folded)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return { folded: next }
    }),
  unfoldAll: () => set((s) => (s.folded.size === 0 ? s : { folded: new Set() })),
}))

export const useCanvasView = <T>(pick: (s: CanvasViewState) => T): T => useStore(canvasViewStore, pick)
