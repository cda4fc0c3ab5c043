/**
 * React Flow nodes and parent → child edges derived from the document. A
 * builder keeps the previous node and edge objects and reuses each one whose
 * inputs did not change, so React Flow re-renders only the tags a click
 * touched, even in a forest of thousands.
 */
import type { Edge, Node, XYPosition } from '@xyflow/react'
import { accessIn, type Coverage, type DesignDoc, type TagId } from '../../core/model'
import { TAG_NODE_HEIGHT, TAG_NODE_WIDTH } from './forestLayout'

export type TagNodeData = { tagId: TagId }
export type TagFlowNode = Node<TagNodeData, 'tag'>

export interface GraphInputs {
  doc: DesignDoc
  layout: ReadonlyMap<string, { x: number; y: number }>
  coverage: ReadonlyMap<TagId, Coverage>
  selected: ReadonlySet<TagId>
  draggable: boolean
  /** Where dragged tags are right now (flow coordinates). */
  dragPositions: ReadonlyMap<string, XYPosition> | null
  drop: { id: TagId; side: 'into' | 'before' | 'after' } | null
}

/** `data-*` attributes for a node's wrapper element (React accepts any data- attribute). */
function dataAttributes(attrs: Record<`data-${string}`, string>): Node['domAttributes'] {
  return attrs
}

export function createGraphBuilder(): (inputs: GraphInputs) => { nodes: TagFlowNode[]; edges: Edge[] } {
  let nodeCache = new Map<string, { key: string; node: TagFlowNode }>()
  let edgeCache = new Map<string, { key: string; edge: Edge }>()
  return ({ doc, layout, coverage, selected, draggable, dragPositions, drop: dropMark }) => {
    const nextNodes = new Map<string, { key: string; node: TagFlowNode }>()
    const nextEdges = new Map<string, { key: string; edge: Edge }>()
    const nodes: TagFlowNode[] = []
    const edges: Edge[] = []
    for (const tag of doc.tags) {
      const pos = dragPositions?.get(tag.id) ?? layout.get(tag.id) ?? { x: 0, y: 0 }
      const access = accessIn(doc, tag.id)
      const eff = coverage.get(tag.id)?.effective ?? 'none'
      const isSelected = selected.has(tag.id)
      const drop = dropMark?.id === tag.id ? dropMark.side : ''
      const key = `${pos.x}|${pos.y}|${tag.name}|${access}|${eff}|${isSelected}|${draggable}|${drop}`
      const old = nodeCache.get(tag.id)
      const node: TagFlowNode = old && old.key === key ? old.node : {
        id: tag.id,
        type: 'tag',
        position: { x: pos.x, y: pos.y },
        width: TAG_NODE_WIDTH,
        height: TAG_NODE_HEIGHT,
        data: { tagId: tag.id },
        selected: isSelected,
        draggable,
        // The accessible name of the node is the tag's name; its grant is an attribute beside it.
        ariaLabel: tag.name,
        domAttributes: dataAttributes({ 'data-access': access, 'data-coverage': eff }),
        className: `tag-flow-node eff-${eff}${drop ? ` is-drop-${drop}` : ''}`,
      }
      nextNodes.set(tag.id, { key, node })
      nodes.push(node)
      if (tag.parent !== null && layout.has(tag.parent)) {
        const id = `${tag.parent}->${tag.id}`
        // An edge inside a covered subtree takes the colour of that coverage.
        const parentEff = coverage.get(tag.parent)?.effective ?? 'none'
        const edgeEff = parentEff === eff ? eff : 'none'
        const ekey = edgeEff
        const olde = edgeCache.get(id)
        const edge = olde && olde.key === ekey ? olde.edge : {
          id, source: tag.parent, target: tag.id, type: 'smoothstep', className: `tag-edge eff-${edgeEff}`, focusable: false, selectable: false,
        }
        nextEdges.set(id, { key: ekey, edge })
        edges.push(edge)
      }
    }
    nodeCache = nextNodes
    edgeCache = nextEdges
    return { nodes, edges }
  }
}
