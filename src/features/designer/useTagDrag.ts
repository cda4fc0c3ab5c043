import { useReactFlow, type OnNodeDrag, type XYPosition } from '@xyflow/react'
import { useState } from 'react'
import type { TagId } from '../../core/model'
import { designerStore } from '../../stores/designerStore'
import { selectDoc } from '../../stores/selectors'
import { reparent } from './designerActions'
import { dropAt, type Drop } from './dropTarget'
import type { TagFlowNode } from './forestNodes'
import { currentLayout } from './layoutCache'
import { canvasViewStore } from '../../stores/canvasViewStore'

export interface DragState {
  ids: TagId[]
  positions: Map<string, XYPosition>
  drop: Drop | null
}

/**
 * Reparenting by drag, as a small state machine: idle → dragging (the tags
 * follow the pointer, the tag under it is the drop target) → dropped (one
 * moveTags edit, or nothing when the tag lands where it was). The layout then
 * puts everything back in a tidy tree.
 */
export function useTagDrag() {
  const flow = useReactFlow()
  const [drag, setDrag] = useState<DragState | null>(null)

  const track = (event: MouseEvent | TouchEvent, nodes: TagFlowNode[]): DragState => {
    const doc = selectDoc(designerStore.getState())
    const ids = nodes.map((n) => n.id as TagId)
    const pt =
      'clientX' in event ? { x: event.clientX, y: event.clientY } : { x: event.touches[0]?.clientX ?? 0, y: event.touches[0]?.clientY ?? 0 }
    const drop = dropAt(doc, ids, flow.screenToFlowPosition(pt), currentLayout(), canvasViewStore.getState().direction)
    return { ids, positions: new Map(nodes.map((n) => [n.id, n.position])), drop }
  }

  const onNodeDragStart: OnNodeDrag<TagFlowNode> = (event, _node, nodes) => setDrag(track(event, nodes))
  const onNodeDrag: OnNodeDrag<TagFlowNode> = (event, _node, nodes) => setDrag(track(event, nodes))
  const onNodeDragStop: OnNodeDrag<TagFlowNode> = (event, _node, nodes) => {
    const { ids, drop } = track(event, nodes)
    setDrag(null)
    if (drop) reparent(ids, drop.parent, drop.index)
  }
  return { drag, onNodeDragStart, onNodeDrag, onNodeDragStop }
}
