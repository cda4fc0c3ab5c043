import type { ReactFlowInstance } from '@xyflow/react'
import type { TagId } from '../../core/model'
import type { TagBox } from './forestLayout'
import { currentLayout } from './layoutCache'

const MARGIN = 24

/** How far to move a span [a, b] so that it sits inside [lo, hi] (0 when it already does). */
function nudge(a: number, b: number, lo: number, hi: number): number {
  if (a < lo) return lo - a
  if (b > hi) return Math.max(hi - b, lo - a)
  return 0
}

/** The smallest box around `boxes` (flow coordinates). */
function around(boxes: readonly TagBox[]): TagBox {
  const x = Math.min(...boxes.map((b) => b.x))
  const y = Math.min(...boxes.map((b) => b.y))
  return { x, y, width: Math.max(...boxes.map((b) => b.x + b.width)) - x, height: Math.max(...boxes.map((b) => b.y + b.height)) - y }
}

/**
 * Pans by the least amount (keeping the zoom) that brings these tags on screen, read off the layout as it is once
 * the canvas has drawn it: all of them when they fit the canvas together, else the first. Tags folded out of sight
 * are left out.
 */
export function revealTags(flow: ReactFlowInstance, ids: readonly TagId[]): void {
  requestAnimationFrame(() => {
    const pane = document.querySelector('.forest-canvas')?.getBoundingClientRect()
    const layout = currentLayout()
    const boxes = ids.flatMap((id) => layout.get(id) ?? [])
    if (!pane || boxes.length === 0) return
    const { x, y, zoom } = flow.getViewport()
    const all = around(boxes)
    const fits = all.width * zoom <= pane.width - 2 * MARGIN && all.height * zoom <= pane.height - 2 * MARGIN
    const box = fits ? all : boxes[0]
    const left = box.x * zoom + x
    const top = box.y * zoom + y
    const dx = nudge(left, left + box.width * zoom, MARGIN, pane.width - MARGIN)
    const dy = nudge(top, top + box.height * zoom, MARGIN, pane.height - MARGIN)
    if (dx !== 0 || dy !== 0) void flow.setViewport({ x: x + dx, y: y + dy, zoom }, { duration: 200 })
  })
}

/** Brings one tag on screen (see revealTags). */
export function revealTag(flow: ReactFlowInstance, id: TagId): void {
  revealTags(flow, [id])
}
