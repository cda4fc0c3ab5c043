import type { Edge } from '@xyflow/react'
import type { Forest } from '../../core/tags'
import { layoutForest } from './forestLayout'
import type { TagFlowNode } from './TagNode'

/** React Flow nodes and parent → child edges for a forest, laid out as trees. */
export function forestGraph(forest: Forest): { nodes: TagFlowNode[]; edges: Edge[] } {
  const positions = layoutForest(forest)
  const nodes: TagFlowNode[] = forest.tags.map((tag) => ({
    id: tag.name,
    type: 'tag',
    position: { x: positions.get(tag.name)!.x, y: positions.get(tag.name)!.y },
    data: { name: tag.name, description: tag.description },
    // The accessible name of the node is the tag's name (screen readers, tests).
    ariaLabel: tag.name,
    draggable: false,
  }))
  const edges: Edge[] = forest.tags
    .filter((tag) => tag.parent !== null)
    .map((tag) => ({ id: `${tag.parent}->${tag.name}`, source: tag.parent!, target: tag.name }))
  return { nodes, edges }
}
