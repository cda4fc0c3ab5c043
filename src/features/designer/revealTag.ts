import type { ReactFlowInstance } from '@xyflow/react'
import type { TagId } from '../../core/model'
import { currentLayout } from './layoutCache'

const MARGIN = 24

/** How far to move a span [a, b] so that it sits inside [lo, hi] (0 when it already does). */
function nudge(a: number, b: number, lo: number, hi: number): number {
  if (a < lo) return lo - a
  if (b > hi) return Math.max(hi - b, lo - a)
  return 0
}

/** Pans by the least amount (keeping the zoom) that brings a tag on screen, once React Flow knows where it is. */
export function revealTag(flow: ReactFlowInstance, id: TagId): void {
  requestAnimationFrame(() => {
    const node = flow.getInternalNode(id)
    const pane = document.querySelector('.forest-canvas')?.getBoundingClientRect()
    if (!node || !pane) return
    const { x, y, zoom } = flow.getViewport()
    const p = node.internals.positionAbsolute
    const box = currentLayout().get(id)
    if (!box) return
    const left = p.x * zoom + x
    const top = p.y * zoom + y
    const dx = nudge(left, left + box.width * zoom, MARGIN, pane.width - MARGIN)
    const dy = nudge(top, top + box.height * zoom, MARGIN, pane.height - MARGIN)
    if (dx !== 0 || dy !== 0) void flow.setViewport({ x: x + dx, y: y + dy, zoom }, { duration: 200 })
  })
}
