import { getViewportForBounds, useReactFlow, type ReactFlowInstance } from '@xyflow/react'
import { designerStore } from '../../stores/designerStore'
import { selectDoc } from '../../stores/selectors'
import { TAG_NODE_HEIGHT, TAG_NODE_WIDTH } from './forestLayout'
import { layoutOf } from './layoutCache'

export const MIN_ZOOM = 0.05
const MAX_FIT_ZOOM = 1.1
/** Below this a tag's name is unreadable: a larger forest is framed from its top-left corner instead (zoom out to see it all). */
const MIN_FIT_ZOOM = 0.4
const PAD = 24
/** Room under the lowest row for the notes shown beside tags. */
const NOTES = 60

/**
 * Fits the whole forest to the view from the layout itself, not from measured
 * nodes: a large forest only mounts the tags on screen, so React Flow's own
 * fitView would frame just those.
 */
export function fitForest(flow: Pick<ReactFlowInstance, 'setViewport'>, duration = 0, size?: { width: number; height: number }): void {
  const pane = size ?? document.querySelector('.forest-canvas')?.getBoundingClientRect()
  if (!pane || pane.width === 0 || pane.height === 0) return
  const layout = layoutOf(selectDoc(designerStore.getState()).tags)
  if (layout.size === 0) {
    void flow.setViewport({ x: pane.width / 2, y: 80, zoom: 1 }, { duration })
    return
  }
  let minX = Infinity
  let minY = Infinity
  let maxX = -Infinity
  let maxY = -Infinity
  for (const p of layout.values()) {
    minX = Math.min(minX, p.x)
    minY = Math.min(minY, p.y)
    maxX = Math.max(maxX, p.x + TAG_NODE_WIDTH)
    maxY = Math.max(maxY, p.y + TAG_NODE_HEIGHT + NOTES)
  }
  const vp = getViewportForBounds({ x: minX, y: minY, width: maxX - minX, height: maxY - minY }, pane.width, pane.height, MIN_ZOOM, MAX_FIT_ZOOM, 0.12)
  if (vp.zoom >= MIN_FIT_ZOOM) {
    void flow.setViewport(vp, { duration })
    return
  }
  void flow.setViewport({ x: PAD - minX * MIN_FIT_ZOOM, y: PAD - minY * MIN_FIT_ZOOM, zoom: MIN_FIT_ZOOM }, { duration })
}

/** Fits the forest to the view (after the store has the new forest: the layout is read from it). */
export function useFitView(): () => void {
  const flow = useReactFlow()
  return () => fitForest(flow, 250)
}
