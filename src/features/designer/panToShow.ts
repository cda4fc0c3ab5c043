/** A rectangle in the canvas's own coordinates (pixels from its top-left corner). */
export interface Rect {
  readonly left: number
  readonly top: number
  readonly right: number
  readonly bottom: number
}

/** Room kept between a revealed tag and the canvas's edges. */
export const EDGE_MARGIN = 24
/** Room kept between a revealed tag and what floats over the canvas. */
const OVERLAY_GAP = 8

/** How far to move a span [a, b] so that it sits inside [lo, hi] (0 when it already does). */
function nudge(a: number, b: number, lo: number, hi: number): number {
  if (a < lo) return lo - a
  if (b > hi) return Math.max(hi - b, lo - a)
  return 0
}

const shifted = (r: Rect, dx: number, dy: number): Rect => ({
  left: r.left + dx,
  top: r.top + dy,
  right: r.right + dx,
  bottom: r.bottom + dy,
})

const overlaps = (a: Rect, b: Rect): boolean =>
  a.left < b.right + OVERLAY_GAP && b.left - OVERLAY_GAP < a.right && a.top < b.bottom + OVERLAY_GAP && b.top - OVERLAY_GAP < a.bottom

/**
 * The pan (dx, dy) that brings `box` inside a canvas of `size`, away from its edges, and clear of `overlays` (the
 * overview map, the zoom buttons): a tag revealed under the overview would be on screen and still out of sight. Of
 * the pans that do both, the shortest (by |dx| + |dy|); when none does (a box too large to fit beside them), the
 * least pan that brings it inside the edges.
 */
export function panToShow(
  box: Rect,
  size: { readonly width: number; readonly height: number },
  overlays: readonly Rect[],
): { dx: number; dy: number } {
  const least = {
    dx: nudge(box.left, box.right, EDGE_MARGIN, size.width - EDGE_MARGIN),
    dy: nudge(box.top, box.bottom, EDGE_MARGIN, size.height - EDGE_MARGIN),
  }
  const there = shifted(box, least.dx, least.dy)
  if (!overlays.some((o) => overlaps(there, o))) return least
  const inside = (r: Rect) =>
    r.left >= EDGE_MARGIN && r.top >= EDGE_MARGIN && r.right <= size.width - EDGE_MARGIN && r.bottom <= size.height - EDGE_MARGIN
  let best: { dx: number; dy: number } | null = null
  // Past each overlay's side, from where the least pan put the box: past one can land on another, which then fails.
  for (const o of overlays) {
    const away = [
      { dx: 0, dy: o.top - OVERLAY_GAP - there.bottom },
      { dx: 0, dy: o.bottom + OVERLAY_GAP - there.top },
      { dx: o.left - OVERLAY_GAP - there.right, dy: 0 },
      { dx: o.right + OVERLAY_GAP - there.left, dy: 0 },
    ]
    for (const a of away) {
      const pan = { dx: least.dx + a.dx, dy: least.dy + a.dy }
      const r = shifted(box, pan.dx, pan.dy)
      if (!inside(r) || overlays.some((other) => overlaps(r, other))) continue
      if (best === null || Math.abs(pan.dx) + Math.abs(pan.dy) < Math.abs(best.dx) + Math.abs(best.dy)) best = pan
    }
  }
  return best ?? least
}
