/**
 * Where a dragged tag would land: on the tag under the pointer (it becomes
 * that tag's child), or on empty canvas (it becomes a root). Among its new
 * siblings it goes where the pointer is, left to right, so dragging also
 * reorders. Tags inside the dragged subtrees are never targets.
 */
import { subtreeIds, type DesignDoc, type TagId } from '../../core/model'
import { TAG_NODE_HEIGHT, TAG_NODE_WIDTH } from './forestLayout'

export interface Drop {
  parent: TagId | null
  index: number
  /** Plain words for the hint shown while dragging. */
  hint: string
}

type Layout = ReadonlyMap<string, { x: number; y: number }>

export function tagAt(point: { x: number; y: number }, layout: Layout, exclude: ReadonlySet<string>): TagId | null {
  for (const [id, p] of layout) {
    if (exclude.has(id)) continue
    if (point.x >= p.x && point.x <= p.x + TAG_NODE_WIDTH && point.y >= p.y && point.y <= p.y + TAG_NODE_HEIGHT) return id as TagId
  }
  return null
}

const ordinal = (n: number) => `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`

export function dropAt(doc: DesignDoc, dragged: readonly TagId[], point: { x: number; y: number }, layout: Layout): Drop {
  const moving = subtreeIds(doc.tags, dragged)
  const over = tagAt(point, layout, moving)
  const parent = over
  const movingSet = new Set(dragged)
  const siblings = doc.tags.filter((t) => t.parent === parent && !movingSet.has(t.id))
  const index = siblings.filter((t) => {
    const p = layout.get(t.id)
    return p !== undefined && p.x + TAG_NODE_WIDTH / 2 < point.x
  }).length
  const what = dragged.length === 1 ? (doc.tags.find((t) => t.id === dragged[0])?.name ?? 'the tag') : `${dragged.length} tags`
  const place = `${ordinal(index + 1)} of ${siblings.length + dragged.length}`
  const parentName = doc.tags.find((t) => t.id === parent)?.name
  const hint = parent === null
    ? `Release on empty canvas: ${what} becomes a root (${place})`
    : `Release on ${parentName}: ${what} becomes its child (${place})`
  return { parent, index, hint }
}
