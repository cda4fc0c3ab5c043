import { hierarchy, tree } from 'd3-hierarchy'
import type { Forest } from '../../core/tags'

export const TAG_NODE_WIDTH = 168
export const TAG_NODE_HEIGHT = 48
const H_GAP = 24
const V_GAP = 56

export interface PositionedTag {
  name: string
  x: number
  y: number
}

interface LayoutNode {
  name: string
  children: LayoutNode[]
}

/**
 * Tidy-tree positions (top-left corners, as React Flow wants them) for every
 * tag, by d3-hierarchy's Reingold–Tilford layout. It keeps siblings in input
 * order, which matters: in a superred forest order fixes the order of distinct
 * combinations. The roots hang under an invisible super-root so the whole
 * forest is one tidy layout, roots side by side in order.
 */
export function layoutForest(forest: Forest): Map<string, PositionedTag> {
  const nodes = new Map<string, LayoutNode>()
  for (const tag of forest.tags) nodes.set(tag.name, { name: tag.name, children: [] })
  const superRoot: LayoutNode = { name: '', children: [] }
  for (const tag of forest.tags) {
    const parent = tag.parent === null ? undefined : nodes.get(tag.parent)
    // A tag whose parent is missing is drawn as a root so that it stays visible.
    ;(parent ?? superRoot).children.push(nodes.get(tag.name)!)
  }
  const root = tree<LayoutNode>().nodeSize([TAG_NODE_WIDTH + H_GAP, TAG_NODE_HEIGHT + V_GAP])(hierarchy(superRoot))
  const out = new Map<string, PositionedTag>()
  for (const node of root.descendants()) {
    if (node === root) continue
    out.set(node.data.name, { name: node.data.name, x: node.x - TAG_NODE_WIDTH / 2, y: node.y - (TAG_NODE_HEIGHT + V_GAP) })
  }
  // Tags caught in a parent cycle are unreachable from any root: park them in a row below.
  let parked = 0
  const bottom = Math.max(0, ...[...out.values()].map((p) => p.y)) + TAG_NODE_HEIGHT + V_GAP
  for (const tag of forest.tags) {
    if (!out.has(tag.name)) out.set(tag.name, { name: tag.name, x: parked++ * (TAG_NODE_WIDTH + H_GAP), y: bottom })
  }
  return out
}
