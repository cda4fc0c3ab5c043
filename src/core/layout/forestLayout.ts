import { hierarchy, tree } from 'd3-hierarchy'
import type { Forest } from '../tags'

export const TAG_NODE_WIDTH = 200
export const TAG_NODE_HEIGHT = 80
export const H_GAP = 28
/** The widest a normal tag grows for its name. */
export const MAX_TAG_WIDTH = 2 * TAG_NODE_WIDTH
/** Room below each tag for the notes shown beside it. */
export const V_GAP = 96

/** Which way the trees grow: down (roots on top) or right (roots on the left, so a wide forest becomes a tall one). */
export type LayoutDirection = 'down' | 'right'
/**
 * How much each tag shows: normal (name, description, grant, notes under it) or compact (the name and
 * a grant icon on one line, the rest in the inspector and the tooltip), so a wide forest fits legibly.
 */
export type Density = 'normal' | 'compact'
/** Room between a parent's column and its children's in the left-to-right layout (edges run there). */
const COL_GAP = 72
/** Rows of the left-to-right layout: a tag and the notes shown under it. */
const ROW_GAP = 56

/** The size of a tag's name in both densities (designer.css .tag-node__name says the same). */
export const NAME_FONT_PX = 13
/** Liberation Mono and the other monospace fallbacks advance 0.6 em a character; a little over, to be safe. */
const CHAR_EM = 0.62
/** A compact tag: one line of name, its padding and border, and the grant icon beside the name. */
export const COMPACT_HEIGHT = 28
const COMPACT_CHROME = 2 * 8 + 2 * 2.5 + 6 + 18
const COMPACT_MIN_WIDTH = 72
/** A normal tag's horizontal padding and border around its name. */
const NORMAL_CHROME = 2 * 10 + 2 * 2.5
const COMPACT_H_GAP = 16
const COMPACT_V_GAP = 36
const COMPACT_COL_GAP = 36
const COMPACT_ROW_GAP = 6

/** Characters drawn two cells wide in a monospace font (CJK, Hangul, fullwidth forms, emoji). */
const WIDE =
  /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1faff}\u{20000}-\u{3fffd}]/u

/** How wide a name is drawn, from its characters (a monospace font: no browser needed, the same in tests and bench). */
export function nameWidth(name: string): number {
  let cells = 0
  for (const ch of name) cells += WIDE.test(ch) ? 2 : 1
  return Math.ceil(cells * CHAR_EM * NAME_FONT_PX)
}

/** The one source of a tag's size: the layout, the nodes, the fit, drop targets and reveal all read it from here. */
export function tagSize(name: string, density: Density): { width: number; height: number } {
  // A name longer than the normal tag widens its tag rather than being cut by an ellipsis, up to twice the
  // width: past that (a pasted paragraph, a payload) the ellipsis cuts it and the title and inspector show it whole,
  // so one such name cannot shrink the whole forest's fit.
  if (density === 'normal')
    return { width: Math.min(MAX_TAG_WIDTH, Math.max(TAG_NODE_WIDTH, nameWidth(name) + NORMAL_CHROME)), height: TAG_NODE_HEIGHT }
  return { width: Math.max(COMPACT_MIN_WIDTH, nameWidth(name) + COMPACT_CHROME), height: COMPACT_HEIGHT }
}

/** A tag on the canvas: its top-left corner (as React Flow wants it) and its size. */
export interface TagBox {
  x: number
  y: number
  width: number
  height: number
}

export interface PositionedTag extends TagBox {
  name: string
}

interface LayoutNode {
  id: string
  width: number
  children: LayoutNode[]
}

/**
 * Tidy-tree positions and sizes for items with an id and a parent id, by
 * d3-hierarchy's Reingold–Tilford layout. It keeps siblings in input order,
 * which matters: in a superred forest order fixes the order of distinct
 * combinations. The roots hang under an invisible super-root so the whole
 * forest is one tidy layout, roots side by side in order. In the compact
 * density each tag is as wide as its name: columns of the left-to-right
 * layout are as wide as their widest tag, and top-down neighbours as far apart as their widths need.
 */
export function layoutTree(
  items: ReadonlyArray<{ id: string; parent: string | null; name?: string }>,
  direction: LayoutDirection = 'down',
  density: Density = 'normal',
): Map<string, TagBox> {
  const nodes = new Map<string, LayoutNode>()
  for (const t of items) if (!nodes.has(t.id)) nodes.set(t.id, { id: t.id, width: tagSize(t.name ?? t.id, density).width, children: [] })
  const superRoot: LayoutNode = { id: '', width: 0, children: [] }
  const placed = new Set<string>()
  for (const t of items) {
    if (placed.has(t.id)) continue
    placed.add(t.id)
    const parent = t.parent === null ? undefined : nodes.get(t.parent)
    // A tag whose parent is missing is drawn as a root so that it stays visible.
    ;(parent ?? superRoot).children.push(nodes.get(t.id)!)
  }
  const compact = density === 'compact'
  const height = compact ? COMPACT_HEIGHT : TAG_NODE_HEIGHT
  // Only what hangs under the super-root is a tree; parent cycles are cut off and parked below.
  const out = new Map<string, TagBox>()
  if (direction === 'down') {
    const rowStep = height + (compact ? COMPACT_V_GAP : V_GAP)
    // Neighbours sit their own half-widths plus a gap apart (d3 asks only about neighbouring contours), so a
    // wide tag widens its neighbourhood, not every slot; tags of different parents get one more slot between them.
    const gap = compact ? COMPACT_H_GAP : H_GAP
    const cousinGap = (compact ? COMPACT_MIN_WIDTH : TAG_NODE_WIDTH) + gap
    const root = tree<LayoutNode>()
      .nodeSize([1, rowStep])
      .separation((a, b) => (a.data.width + b.data.width) / 2 + gap + (a.parent === b.parent ? 0 : cousinGap))(hierarchy(superRoot))
    for (const node of root.descendants()) {
      if (node === root) continue
      out.set(node.data.id, { x: node.x - node.data.width / 2, y: node.y - rowStep, width: node.data.width, height })
    }
  } else {
    // The same tidy tree turned a quarter: d3's breadth axis becomes y (siblings stacked in order), depth becomes x.
    // Rows are the scarce axis here: subtrees sit a third of a row apart rather than d3's default of a whole one.
    const root = tree<LayoutNode>()
      .nodeSize([height + (compact ? COMPACT_ROW_GAP : ROW_GAP), 1])
      .separation((a, b) => (a.parent === b.parent ? 1 : 1.33))(hierarchy(superRoot))
    // Each depth is a column as wide as its widest tag.
    const colWidth: number[] = []
    for (const node of root.descendants()) colWidth[node.depth] = Math.max(colWidth[node.depth] ?? 0, node.data.width)
    const colX: number[] = [0, 0]
    for (let d = 2; d < colWidth.length; d++) colX[d] = colX[d - 1] + colWidth[d - 1] + (compact ? COMPACT_COL_GAP : COL_GAP)
    for (const node of root.descendants()) {
      if (node === root) continue
      out.set(node.data.id, { x: colX[node.depth], y: node.x - height / 2, width: node.data.width, height })
    }
  }
  let parkedX = 0
  let bottom = 0
  for (const p of out.values()) bottom = Math.max(bottom, p.y)
  bottom += height + (compact ? COMPACT_V_GAP : V_GAP)
  for (const t of items) {
    if (out.has(t.id)) continue
    const width = nodes.get(t.id)!.width
    out.set(t.id, { x: parkedX, y: bottom, width, height })
    parkedX += width + (compact ? COMPACT_H_GAP : H_GAP)
  }
  return out
}

/** `layoutTree` for a plain forest, keyed by tag name. */
export function layoutForest(forest: Forest, direction: LayoutDirection = 'down', density: Density = 'normal'): Map<string, PositionedTag> {
  const pos = layoutTree(
    forest.tags.map((t) => ({ id: t.name, parent: t.parent, name: t.name })),
    direction,
    density,
  )
  return new Map([...pos].map(([name, p]) => [name, { name, ...p }]))
}

/**
 * The tags left on the canvas when some subtrees are folded: a folded tag
 * stays (it shows how many it hides), everything under it goes. Input order
 * is kept, so the layout of what is left is the same tidy tree.
 */
export function visibleItems<T extends { id: string; parent: string | null }>(
  items: readonly T[],
  folded: ReadonlySet<string>,
): readonly T[] {
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
      if (folded.has(p) || hidden.get(p) === true) {
        out = true
        break
      }
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
