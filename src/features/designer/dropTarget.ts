/**
 * Where a dragged tag would land, the way tree editors do it: over the middle
 * of a tag it becomes that tag's child; over a tag's left or right edge it
 * becomes its sibling just before or after it (so dragging also reorders); on
 * empty canvas it becomes a root, placed among the roots by where it is
 * dropped. Tags inside the dragged subtrees are never targets.
 */
import { subtreeIds, type DesignDoc, type TagId } from '../../core/model'
import type { LayoutDirection, TagBox } from '../../core/layout/forestLayout'

export type DropSide = 'into' | 'before' | 'after'

export interface Drop {
  parent: TagId | null
  index: number
  /** The tag under the pointer and which part of it, for the drop indicator. */
  over: { id: TagId; side: DropSide } | null
  /** Plain words for the hint shown while dragging. */
  hint: string
}

/** Where each tag is drawn and how big: the canvas's own layout, so targets match what is on screen. */
type Layout = ReadonlyMap<string, TagBox>

/** The share of a tag's width, at each side, that means "beside it" rather than "into it". */
export const EDGE_ZONE = 0.25

export function tagAt(point: { x: number; y: number }, layout: Layout, exclude: ReadonlySet<string>): TagId | null {
  for (const [id, p] of layout) {
    if (exclude.has(id)) continue
    if (point.x >= p.x && point.x <= p.x + p.width && point.y >= p.y && point.y <= p.y + p.height) return id as TagId
  }
  return null
}

const ordinal = (n: number) =>
  `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`

/** In the left-to-right layout siblings are stacked, so "beside" is above or below a tag rather than left or right of it. */
export function dropAt(
  doc: DesignDoc,
  dragged: readonly TagId[],
  point: { x: number; y: number },
  layout: Layout,
  direction: LayoutDirection = 'down',
): Drop {
  const across = direction === 'down' ? 'x' : 'y'
  const extent = (p: TagBox) => (direction === 'down' ? p.width : p.height)
  const moving = subtreeIds(doc.tags, dragged)
  const movingSet = new Set(dragged)
  const overId = tagAt(point, layout, moving)
  const byId = new Map(doc.tags.map((t) => [t.id, t]))
  const siblingsOf = (parent: TagId | null) => doc.tags.filter((t) => t.parent === parent && !movingSet.has(t.id))
  const what = dragged.length === 1 ? (byId.get(dragged[0])?.name ?? 'the tag') : `${dragged.length} tags`

  let parent: TagId | null
  let index: number
  let side: DropSide = 'into'
  if (overId !== null) {
    const box = layout.get(overId)!
    const rel = (point[across] - box[across]) / extent(box)
    side = rel < EDGE_ZONE ? 'before' : rel > 1 - EDGE_ZONE ? 'after' : 'into'
  }
  if (overId !== null && side === 'into') {
    parent = overId
    index = siblingsOf(parent).length
  } else if (overId !== null) {
    parent = byId.get(overId)!.parent
    index = siblingsOf(parent).findIndex((t) => t.id === overId) + (side === 'after' ? 1 : 0)
  } else {
    parent = null
    index = siblingsOf(null).filter((t) => {
      const p = layout.get(t.id)
      return p !== undefined && p[across] + extent(p) / 2 < point[across]
    }).length
  }
  const place = `${ordinal(index + 1)} of ${siblingsOf(parent).length + dragged.length}`
  const parentName = parent === null ? null : byId.get(parent)?.name
  const hint =
    overId === null
      ? `Release on empty canvas: ${what} becomes a root (${place})`
      : side === 'into'
        ? `Release: ${what} becomes a child of ${parentName} (${place})`
        : `Release: ${what} goes ${side} ${byId.get(overId)!.name} (${parentName ? `${place} under ${parentName}` : `root, ${place}`})`
  return { parent, index, over: overId === null ? null : { id: overId, side }, hint }
}
