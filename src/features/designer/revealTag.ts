import type { ReactFlowInstance } from '@xyflow/react'
import type { TagId } from '../../core/model'
import type { TagBox } from '../../core/layout/forestLayout'
import { currentLayout } from './layoutCache'
import { EDGE_MARGIN, panToShow, type Rect } from './panToShow'

/** The smallest box around `boxes` (flow coordinates). */
function around(boxes: readonly TagBox[]): TagBox {
  const x = Math.min(...boxes.map((b) => b.x))
  const y = Math.min(...boxes.map((b) => b.y))
  return { x, y, width: Math.max(...boxes.map((b) => b.x + b.width)) - x, height: Math.max(...boxes.map((b) => b.y + b.height)) - y }
}

/**
 * What stays over the canvas (the overview map, its toggle, the zoom buttons), in the canvas's own coordinates. Not
 * the drop hint: it is gone once the drop that moved the tags has landed.
 */
function overlaysOf(canvas: Element, pane: DOMRect): Rect[] {
  return [...canvas.querySelectorAll('.react-flow__minimap, .react-flow__controls, .map-toggle')]
    .map((el) => el.getBoundingClientRect())
    .filter((r) => r.width > 0 && r.height > 0)
    .map((r) => ({ left: r.left - pane.left, top: r.top - pane.top, right: r.right - pane.left, bottom: r.bottom - pane.top }))
}

/**
 * Pans by the least amount (keeping the zoom) that brings these tags on screen and out from under the overview map
 * and the zoom buttons, read off the layout as it is once the canvas has drawn it: all of them when they fit the
 * canvas together, else the first. Tags folded out of sight are left out.
 */
export function revealTags(flow: ReactFlowInstance, ids: readonly TagId[]): void {
  requestAnimationFrame(() => {
    const canvas = document.querySelector('.forest-canvas')
    const pane = canvas?.getBoundingClientRect()
    const layout = currentLayout()
    const boxes = ids.flatMap((id) => layout.get(id) ?? [])
    if (!canvas || !pane || boxes.length === 0) return
    const { x, y, zoom } = flow.getViewport()
    const all = around(boxes)
    const fits = all.width * zoom <= pane.width - 2 * EDGE_MARGIN && all.height * zoom <= pane.height - 2 * EDGE_MARGIN
    const box = fits ? all : boxes[0]
    const left = box.x * zoom + x
    const top = box.y * zoom + y
    const { dx, dy } = panToShow(
      { left, top, right: left + box.width * zoom, bottom: top + box.height * zoom },
      pane,
      overlaysOf(canvas, pane),
    )
    if (dx !== 0 || dy !== 0) void flow.setViewport({ x: x + dx, y: y + dy, zoom }, { duration: 200 })
  })
}

/** Brings one tag on screen (see revealTags). */
export function revealTag(flow: ReactFlowInstance, id: TagId): void {
  revealTags(flow, [id])
}
