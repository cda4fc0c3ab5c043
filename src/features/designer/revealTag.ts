import type { ReactFlowInstance } from '@xyflow/react'
import type { TagId } from '../../core/model'
import { TAG_NODE_HEIGHT, TAG_NODE_WIDTH } from './forestLayout'

const MARGIN = 40

/** Pans (keeping the zoom) so that a tag is on screen, once React Flow knows where it is. */
export function revealTag(flow: ReactFlowInstance, id: TagId): void {
  requestAnimationFrame(() => {
    const node = flow.getInternalNode(id)
    const pane = document.querySelector('.forest-canvas')?.getBoundingClientRect()
    if (!node || !pane) return
    const { x, y, zoom } = flow.getViewport()
    const p = node.internals.positionAbsolute
    const left = p.x * zoom + x
    const top = p.y * zoom + y
    const inside = left >= MARGIN && top >= MARGIN && left + TAG_NODE_WIDTH * zoom <= pane.width - MARGIN && top + TAG_NODE_HEIGHT * zoom <= pane.height - MARGIN
    if (!inside) void flow.setCenter(p.x + TAG_NODE_WIDTH / 2, p.y + TAG_NODE_HEIGHT / 2, { zoom, duration: 200 })
  })
}
