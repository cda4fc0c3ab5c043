import { hierarchy, tree } from 'd3-hierarchy'
import type { Forest } from '../../core/tags'

export const TAG_NODE_WIDTH = 200
export const TAG_NODE_HEIGHT = 80
export const H_GAP = 28
/** Room below each tag for the notes shown beside it. */
export const V_GAP = 96

export interface PositionedTag {
  name: string
  x: number
  y: number
}

interface LayoutNode {
  id: string
  children: LayoutNode[]
}

/**
 * Tidy-tree positions (top-left corners, as React Flow wants them) for items
 * with an id and a parent id, by d3-hierarchy's Reingold–Tilford layout. It
 * keeps siblings in input order, which matters: in a superred forest order
 * fixes the order of distinct combinations. The roots hang under an invisible
 * super-root so the whole forest is one tidy layout, roots side by side in order.
 */
export function layoutTree(items: ReadonlyArray<{ id: string; parent: string | null }>): Map<string, { x: number; y: number }> {
  const nodes = new Map<string, LayoutNode>()
  for (const t of items) if (!nodes.has(t.id)) nodes.set(t.id, { id: t.id, children: [] })
  const superRoot: LayoutNode = { id: '', children: [] }
  const placed = new Set<string>()
  for (const t of items) {
    if (placed.has(t.id)) continue
    placed.add(t.id)
    const parent = t.parent === null ? undefined : nodes.get(t.parent)
    // A tag whose parent is missing is drawn as a root so that it stays visible.
    ;(parent ?? superRoot).children.push(nodes.get(t.id)!)
  }
  // Only what hangs under the super-root is a tree; parent cycles are cut off and parked below.
  const root = tree<LayoutNode>().nodeSize([TAG_NODE_WIDTH + H_GAP, TAG_NODE_HEIGHT + V_GAP])(hierarchy(superRoot))
  const out = new Map<string, { x: number; y: number }>()
  for (const node of root.descendants()) {
    if (node === root) continue
    out.set(node.data.id, { x: node.x - TAG_NODE_WIDTH / 2, y: node.y - (TAG_NODE_HEIGHT + V_GAP) })
  }
  let parked = 0
  let bottom = 0
  for (const p of out.values()) bottom = Math.max(bottom, p.y)
  bottom += TAG_NODE_HEIGHT + V_GAP
  for (const t of items) {
    if (!out.has(t.id)) out.set(t.id, { x: parked++ * (TAG_NODE_WIDTH + H_GAP), y: bottom })
  }
  return out
}

/** `layoutTree` for a plain forest, keyed by tag name. */
export function layoutForest(forest: Forest): Map<string, PositionedTag> {
  const pos = layoutTree(forest.tags.map((t) => ({ id: t.name, parent: t.parent })))
  return new Map([...pos].map(([name, p]) => [name, { name, ...p }]))
}
