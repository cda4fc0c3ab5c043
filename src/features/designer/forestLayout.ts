import { hierarchy, tree } from 'd3-hierarchy'
import type { Forest } from '../../core/tags'

export const TAG_NODE_WIDTH = 200
export const TAG_NODE_HEIGHT = 80
export const H_GAP = 28
/** Room below each tag for the notes shown beside it. */
export const V_GAP = 96

/** Which way the trees grow: down (roots on top) or right (roots on the left, so a wide forest becomes a tall one). */
export type LayoutDirection = 'down' | 'right'
/** Room between a parent's column and its children's in the left-to-right layout (edges run there). */
const COL_GAP = 72
/** Rows of the left-to-right layout: a tag and the notes shown under it. */
const ROW_GAP = 56

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
export function layoutTree(
  items: ReadonlyArray<{ id: string; parent: string | null }>,
  direction: LayoutDirection = 'down',
): Map<string, { x: number; y: number }> {
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
  const out = new Map<string, { x: number; y: number }>()
  if (direction === 'down') {
    const root = tree<LayoutNode>().nodeSize([TAG_NODE_WIDTH + H_GAP, TAG_NODE_HEIGHT + V_GAP])(hierarchy(superRoot))
    for (const node of root.descendants()) {
      if (node === root) continue
      out.set(node.data.id, { x: node.x - TAG_NODE_WIDTH / 2, y: node.y - (TAG_NODE_HEIGHT + V_GAP) })
    }
  } else {
    // The same tidy tree turned a quarter: d3's breadth axis becomes y (siblings stacked in order), depth becomes x.
    // Rows are the scarce axis here: subtrees sit a third of a row apart rather than d3's default of a whole one.
    const root = tree<LayoutNode>().nodeSize([TAG_NODE_HEIGHT + ROW_GAP, TAG_NODE_WIDTH + COL_GAP])
      .separation((a, b) => (a.parent === b.parent ? 1 : 1.33))(hierarchy(superRoot))
    for (const node of root.descendants()) {
      if (node === root) continue
      out.set(node.data.id, { x: node.y - (TAG_NODE_WIDTH + COL_GAP), y: node.x - TAG_NODE_HEIGHT / 2 })
    }
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
export function layoutForest(forest: Forest, direction: LayoutDirection = 'down'): Map<string, PositionedTag> {
  const pos = layoutTree(forest.tags.map((t) => ({ id: t.name, parent: t.parent })), direction)
  return new Map([...pos].map(([name, p]) => [name, { name, ...p }]))
}

/**
 * The tags left on the canvas when some subtrees are folded: a folded tag
 * stays (it shows how many it hides), everything under it goes. Input order
 * is kept, so the layout of what is left is the same tidy tree.
 */
export function visibleItems<T extends { id: string; parent: string | null }>(items: readonly T[], folded: ReadonlySet<string>): readonly T[] {
  if (folded.size === 0) return items
  const parentOf = new Map(items.map((t) => [t.id, t.parent]))
  const hidden = new Map<string, boolean>()
  const isHidden = (id: string): boolean => {
    const known = hidden.get(id)
    if (known !== undefined) return known
    hidden.set(id, false) // a parent cycle stops here instead of recursing forever
    let p = parentOf.get(id) ?? null
    let out = false
    for (let steps = 0; p !== null && steps < items.length; steps++) {
      if (folded.has(p) || hidden.get(p) === true) { out = true; break }
      p = parentOf.get(p) ?? null
    }
    hidden.set(id, out)
    return out
  }
  return items.filter((t) => !isHidden(t.id))
}

/** How many tags sit under each tag (all generations), for the count a folded tag shows. */
export function descendantCounts(items: ReadonlyArray<{ id: string; parent: string | null }>): Map<string, number> {
  const parentOf = new Map(items.map((t) => [t.id, t.parent]))
  const counts = new Map<string, number>()
  for (const t of items) {
    const seen = new Set<string>([t.id])
    for (let p = t.parent; p !== null && parentOf.has(p) && !seen.has(p); p = parentOf.get(p) ?? null) {
      seen.add(p)
      counts.set(p, (counts.get(p) ?? 0) + 1)
    }
  }
  return counts
}
