/**
 * React Flow nodes and parent → child edges derived from the document. The
 * node builder keeps the previous node objects and reuses each one whose
 * inputs did not change (and the whole array when none did), so React Flow
 * re-renders only the tags a click touched, even in a forest of thousands.
 * A node carries where a tag is and whether it is selected, not its grant
 * or coverage: a scope click leaves the array as it was, because handing
 * React Flow a new array costs a pass over every node and every edge
 * (5,000 of each) before anything paints. Each TagNode puts its own grant on
 * its wrapper (data-access, data-coverage).
 */
import { Position, type Edge, type Node, type NodeHandle, type XYPosition } from '@xyflow/react'
import type { DesignDoc, TagId } from '../../core/model'
import type { LayoutDirection, TagBox } from '../../core/layout/forestLayout'

export type TagNodeData = { tagId: TagId }
export type TagFlowNode = Node<TagNodeData, 'tag'>

export interface GraphInputs {
  tags: DesignDoc['tags']
  /** Where each tag is and how big (the layout is the one source of node sizes). */
  layout: ReadonlyMap<string, TagBox>
  selected: ReadonlySet<TagId>
  draggable: boolean
  /** Where dragged tags are right now (flow coordinates). */
  dragPositions: ReadonlyMap<string, XYPosition> | null
  drop: { id: TagId; side: 'into' | 'before' | 'after' } | null
  /** Which way the trees grow (where edges attach); down when not given. */
  direction?: LayoutDirection
}

/**
 * Where each tag's edges attach (top and bottom centre), given up front: React
 * Flow otherwise mounts every node once just to measure its handles, which
 * defeats onlyRenderVisibleElements on a forest of thousands.
 */
function handlesOf(direction: LayoutDirection, w: number, h: number): NodeHandle[] {
  return direction === 'down'
    ? [
        { type: 'target', position: Position.Top, x: w / 2 - 0.5, y: -0.5, width: 1, height: 1 },
        { type: 'source', position: Position.Bottom, x: w / 2 - 0.5, y: h - 0.5, width: 1, height: 1 },
      ]
    : [
        { type: 'target', position: Position.Left, x: -0.5, y: h / 2 - 0.5, width: 1, height: 1 },
        { type: 'source', position: Position.Right, x: w - 0.5, y: h / 2 - 0.5, width: 1, height: 1 },
      ]
}
/** One handle array per direction and size, shared by every tag of that size. */
const handleCache = new Map<string, NodeHandle[]>()
const HANDLES = (direction: LayoutDirection, w: number, h: number): NodeHandle[] => {
  const key = `${direction}:${w}:${h}`
  let out = handleCache.get(key)
  if (!out) handleCache.set(key, (out = handlesOf(direction, w, h)))
  return out
}

/** Where a tag's edges attach in each layout: in from the parent's side, out towards the children. */
export const HANDLE_SIDES: Record<LayoutDirection, { target: Position; source: Position }> = {
  down: { target: Position.Top, source: Position.Bottom },
  right: { target: Position.Left, source: Position.Right },
}

interface Entry {
  x: number
  y: number
  width: number
  height: number
  name: string
  selected: boolean
  draggable: boolean
  drop: string
  direction: LayoutDirection
  node: TagFlowNode
}

export function createNodeBuilder(): (inputs: GraphInputs) => TagFlowNode[] {
  // Mutated in place and compared field by field: a click on a 5,000-tag forest allocates ~nothing.
  const cache = new Map<string, Entry>()
  let last: TagFlowNode[] = []
  return ({ tags, layout, selected, draggable, dragPositions, drop: dropMark, direction = 'down' }) => {
    const nodes: TagFlowNode[] = new Array(tags.length)
    let same = tags.length === last.length
    for (let i = 0; i < tags.length; i++) {
      const tag = tags[i]
      const box = layout.get(tag.id) ?? { x: 0, y: 0, width: 0, height: 0 }
      const pos = dragPositions?.get(tag.id) ?? box
      const isSelected = selected.has(tag.id)
      const drop = dropMark?.id === tag.id ? dropMark.side : ''
      let e = cache.get(tag.id)
      if (
        !e ||
        e.x !== pos.x ||
        e.y !== pos.y ||
        e.width !== box.width ||
        e.height !== box.height ||
        e.name !== tag.name ||
        e.selected !== isSelected ||
        e.draggable !== draggable ||
        e.drop !== drop ||
        e.direction !== direction
      ) {
        e = {
          x: pos.x,
          y: pos.y,
          width: box.width,
          height: box.height,
          name: tag.name,
          selected: isSelected,
          draggable,
          drop,
          direction,
          node: {
            id: tag.id,
            type: 'tag',
            position: { x: pos.x, y: pos.y },
            width: box.width,
            height: box.height,
            handles: HANDLES(direction, box.width, box.height),
            data: { tagId: tag.id },
            selected: isSelected,
            draggable,
            // The accessible name of the node is the tag's name; its grant is an attribute beside it (set by TagNode).
            ariaLabel: tag.name,
            className: `tag-flow-node${drop ? ` is-drop-${drop}` : ''}`,
          },
        }
        cache.set(tag.id, e)
      }
      if (same && last[i] !== e.node) same = false
      nodes[i] = e.node
    }
    if (cache.size > tags.length) {
      const ids = new Set(tags.map((t) => t.id))
      for (const id of cache.keys()) if (!ids.has(id as TagId)) cache.delete(id)
    }
    if (!same) last = nodes
    return last
  }
}

/** Parent → child edges; they depend on the tree only (each edge reads its own colour). */
export function edgesOf(tags: DesignDoc['tags']): Edge[] {
  const ids = new Set(tags.map((t) => t.id))
  return tags.flatMap((t) =>
    t.parent !== null && ids.has(t.parent)
      ? [{ id: `${t.parent}->${t.id}`, source: t.parent, target: t.id, type: 'tag', focusable: false, selectable: false }]
      : [],
  )
}
