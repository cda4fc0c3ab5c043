import { getViewportForBounds } from '@xyflow/react'
import { NAME_FONT_PX, layoutTree, type Density, type LayoutDirection, type TagBox } from '../../core/layout/forestLayout'

/** The smallest name still read without effort: rendered font size (CSS px x zoom). */
export const LEGIBLE_FONT_PX = 9
/** The zoom at which a name is drawn LEGIBLE_FONT_PX tall. */
export const LEGIBLE_ZOOM = LEGIBLE_FONT_PX / NAME_FONT_PX
export const MAX_FIT_ZOOM = 1.1
export const FIT_PADDING = 0.06
/** Room under the lowest row for the notes shown under tags (none in the compact density: they are in the tooltip). */
const NOTES = 60

type Layout = ReadonlyMap<string, TagBox>

/** The box around every tag as drawn, with room for the notes under the lowest row in the normal density. */
export function forestBounds(layout: Layout, density: Density): { x: number; y: number; width: number; height: number } {
  let minX = Infinity
  let minY = Infinity
  let maxX = -Infinity
  let maxY = -Infinity
  for (const p of layout.values()) {
    minX = Math.min(minX, p.x)
    minY = Math.min(minY, p.y)
    maxX = Math.max(maxX, p.x + p.width)
    maxY = Math.max(maxY, p.y + p.height + (density === 'normal' ? NOTES : 0))
  }
  return { x: minX, y: minY, width: maxX - minX, height: maxY - minY }
}

export function fitViewport(layout: Layout, density: Density, pane: { width: number; height: number }, minZoom: number) {
  return getViewportForBounds(forestBounds(layout, density), pane.width, pane.height, minZoom, MAX_FIT_ZOOM, FIT_PADDING)
}

/**
 * The density (and, when it takes that, the direction) the forest is fitted in when the user has not
 * picked one: normal while its fit keeps names legible; else compact in the current direction, else
 * compact in the other one (a wide forest of short names fits legibly left to right); else normal as
 * it was, since nothing fits legibly (folding is the way then). It never turns a layout the user turned.
 */
export function chooseDensity(
  items: ReadonlyArray<{ id: string; parent: string | null; name?: string }>,
  direction: LayoutDirection,
  pane: { width: number; height: number },
  mayTurn = true,
): { density: Density; direction: LayoutDirection } {
  const zoomOf = (dir: LayoutDirection, density: Density) => fitViewport(layoutTree(items, dir, density), density, pane, 0).zoom
  if (items.length === 0 || zoomOf(direction, 'normal') >= LEGIBLE_ZOOM) return { density: 'normal', direction }
  const other: LayoutDirection = direction === 'down' ? 'right' : 'down'
  for (const dir of mayTurn ? [direction, other] : [direction])
    if (zoomOf(dir, 'compact') >= LEGIBLE_ZOOM) return { density: 'compact', direction: dir }
  return { density: 'normal', direction }
}
