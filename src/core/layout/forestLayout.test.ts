import { CHATBOT_FOREST } from '../tags'
import { AGENTDOJO_FOREST } from '../tags'
import { descendantCounts, layoutForest, TAG_NODE_HEIGHT, TAG_NODE_WIDTH, visibleItems } from './forestLayout'

describe('layoutForest', () => {
  it('keeps siblings and roots left-to-right in input order, children below parents', () => {
    const pos = layoutForest(CHATBOT_FOREST)
    const x = (n: string) => pos.get(n)!.x
    expect(x('system_prompt')).toBeLessThan(x('model'))
    expect(x('model')).toBeLessThan(x('model_identity'))
    expect(x('system')).toBeLessThan(x('user'))
    expect(pos.get('model')!.y).toBeGreaterThan(pos.get('system')!.y)
    expect(pos.get('user')!.y).toBe(pos.get('system')!.y)
  })

  it('never overlaps two tags on one row', () => {
    const tags = Array.from({ length: 60 }, (_, i) => ({
      name: `t${i}`,
      parent: i ? `t${Math.floor((i - 1) / 3)}` : null,
      description: '',
    }))
    const rows = new Map<number, number[]>()
    for (const p of layoutForest({ tags }).values()) rows.set(p.y, [...(rows.get(p.y) ?? []), p.x])
    for (const xs of rows.values()) {
      xs.sort((a, b) => a - b)
      for (let i = 1; i < xs.length; i++) expect(xs[i] - xs[i - 1]).toBeGreaterThanOrEqual(TAG_NODE_WIDTH)
    }
  })

  it('still places tags caught in a parent cycle', () => {
    const pos = layoutForest({
      tags: [
        { name: 'a', parent: 'b', description: '' },
        { name: 'b', parent: 'a', description: '' },
        { name: 'c', parent: null, description: '' },
      ],
    })
    expect([...pos.keys()].sort()).toEqual(['a', 'b', 'c'])
  })

  it('left to right: depth runs along x, siblings stack down in order, and a wide forest becomes a tall one', () => {
    const down = layoutForest(AGENTDOJO_FOREST, 'down')
    const right = layoutForest(AGENTDOJO_FOREST, 'right')
    const extent = (pos: Map<string, { x: number; y: number }>) => {
      const xs = [...pos.values()].map((p) => p.x)
      const ys = [...pos.values()].map((p) => p.y)
      return { w: Math.max(...xs) - Math.min(...xs) + TAG_NODE_WIDTH, h: Math.max(...ys) - Math.min(...ys) + TAG_NODE_HEIGHT }
    }
    expect(extent(down).w).toBeGreaterThan(extent(down).h * 3)
    expect(extent(right).h).toBeGreaterThan(extent(right).w)
    const first = AGENTDOJO_FOREST.tags.find((t) => t.parent !== null)!
    expect(right.get(first.name)!.x).toBeGreaterThan(right.get(first.parent!)!.x + TAG_NODE_WIDTH)
    const roots = AGENTDOJO_FOREST.tags.filter((t) => t.parent === null).map((t) => right.get(t.name)!.y)
    expect([...roots].sort((a, b) => a - b)).toEqual(roots)
    // No two tags overlap in either layout.
    for (const pos of [down, right]) {
      const boxes = [...pos.values()]
      for (let i = 0; i < boxes.length; i++)
        for (let j = i + 1; j < boxes.length; j++) {
          const apart = Math.abs(boxes[i].x - boxes[j].x) >= TAG_NODE_WIDTH || Math.abs(boxes[i].y - boxes[j].y) >= TAG_NODE_HEIGHT
          expect(apart).toBe(true)
        }
    }
  })

  it('folding a tag hides every tag under it, keeps it and the rest in order, and counts what it hides', () => {
    const items = [
      { id: 'a', parent: null },
      { id: 'b', parent: 'a' },
      { id: 'c', parent: 'b' },
      { id: 'd', parent: 'a' },
      { id: 'e', parent: null },
    ]
    expect(visibleItems(items, new Set(['b'])).map((t) => t.id)).toEqual(['a', 'b', 'd', 'e'])
    expect(visibleItems(items, new Set(['a'])).map((t) => t.id)).toEqual(['a', 'e'])
    expect(visibleItems(items, new Set())).toBe(items)
    expect(Object.fromEntries(descendantCounts(items))).toEqual({ a: 3, b: 1 })
    // A parent cycle neither hangs nor hides anything it should not.
    const cyclic = [
      { id: 'x', parent: 'y' },
      { id: 'y', parent: 'x' },
      { id: 'z', parent: null },
    ]
    expect(visibleItems(cyclic, new Set(['z'])).map((t) => t.id)).toEqual(['x', 'y', 'z'])
    expect(descendantCounts(cyclic).get('x')).toBe(1)
  })
})
