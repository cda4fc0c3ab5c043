import fc from 'fast-check'
import { EDGE_MARGIN, panToShow, type Rect } from './panToShow'

const size = { width: 1000, height: 600 }
/** As the canvas draws them: the overview map at the bottom right, its toggle just above it, zoom buttons at the bottom left. */
const map: Rect = { left: 785, top: 435, right: 985, bottom: 585 }
const toggle: Rect = { left: 870, top: 390, right: 985, bottom: 420 }
const zoom: Rect = { left: 15, top: 480, right: 45, bottom: 585 }
const rect = (left: number, top: number, width = 120, height = 40): Rect => ({ left, top, right: left + width, bottom: top + height })
const moved = (r: Rect, p: { dx: number; dy: number }) => rect(r.left + p.dx, r.top + p.dy, r.right - r.left, r.bottom - r.top)
const apart = (a: Rect, b: Rect) => a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top
const inside = (r: Rect) =>
  r.left >= EDGE_MARGIN && r.top >= EDGE_MARGIN && r.right <= size.width - EDGE_MARGIN && r.bottom <= size.height - EDGE_MARGIN

describe('panToShow', () => {
  it('leaves a tag that is on screen and clear where it is', () => {
    expect(panToShow(rect(400, 200), size, [map, toggle, zoom])).toEqual({ dx: 0, dy: 0 })
  })

  it('with nothing over the canvas, pans the least that brings the tag inside the edges', () => {
    expect(panToShow(rect(950, 100), size, [])).toEqual({ dx: 1000 - EDGE_MARGIN - 1070, dy: 0 })
    expect(panToShow(rect(-300, -50), size, [])).toEqual({ dx: EDGE_MARGIN + 300, dy: EDGE_MARGIN + 50 })
  })

  it('a tag off the bottom-right corner is not brought in under the overview map, but beside it, by the shortest way', () => {
    const off = rect(1010, 620)
    const pan = panToShow(off, size, [map, toggle, zoom])
    const there = moved(off, pan)
    expect(inside(there)).toBe(true)
    for (const o of [map, toggle, zoom]) expect(apart(there, o)).toBe(true)
    // The least pan puts it at (856, 536), on the map. Up above the toggle: 154 + 278 = 432; left of the map: 353 + 84 = 437.
    expect(pan).toEqual({ dx: -154, dy: -278 })
  })

  it('past the map and past the toggle above it, not onto the toggle', () => {
    const over = rect(860, 430)
    const there = moved(over, panToShow(over, size, [map, toggle]))
    expect(apart(there, map) && apart(there, toggle) && inside(there)).toBe(true)
    expect(there.bottom).toBeLessThanOrEqual(toggle.top)
  })

  it('a box too large to clear them keeps the least pan', () => {
    const wide = rect(10, 300, 960, 280)
    expect(panToShow(wide, size, [map, zoom])).toEqual(panToShow(wide, size, []))
  })

  it('whatever it returns other than the least pan shows the box inside the edges and clear of every overlay', () => {
    const box = fc.record({
      left: fc.integer({ min: -2000, max: 2000 }),
      top: fc.integer({ min: -2000, max: 2000 }),
      w: fc.integer({ min: 1, max: 700 }),
      h: fc.integer({ min: 1, max: 300 }),
    })
    const overlay = fc.record({
      left: fc.integer({ min: 0, max: 900 }),
      top: fc.integer({ min: 0, max: 500 }),
      w: fc.integer({ min: 10, max: 300 }),
      h: fc.integer({ min: 10, max: 200 }),
    })
    fc.assert(
      fc.property(box, fc.array(overlay, { maxLength: 4 }), (b, os) => {
        const r = rect(b.left, b.top, b.w, b.h)
        const overlays = os.map((o) => rect(o.left, o.top, o.w, o.h))
        const pan = panToShow(r, size, overlays)
        const least = panToShow(r, size, [])
        if (pan.dx === least.dx && pan.dy === least.dy) return
        const there = moved(r, pan)
        expect(inside(there)).toBe(true)
        for (const o of overlays) expect(apart(there, o)).toBe(true)
      }),
    )
  })
})
