import { CHATBOT_FOREST } from '../../core/tags'
import { layoutForest, TAG_NODE_WIDTH } from './forestLayout'

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
    const tags = Array.from({ length: 60 }, (_, i) => ({ name: `t${i}`, parent: i ? `t${Math.floor((i - 1) / 3)}` : null, description: '' }))
    const rows = new Map<number, number[]>()
    for (const p of layoutForest({ tags }).values()) rows.set(p.y, [...(rows.get(p.y) ?? []), p.x])
    for (const xs of rows.values()) {
      xs.sort((a, b) => a - b)
      for (let i = 1; i < xs.length; i++) expect(xs[i] - xs[i - 1]).toBeGreaterThanOrEqual(TAG_NODE_WIDTH)
    }
  })

  it('still places tags caught in a parent cycle', () => {
    const pos = layoutForest({ tags: [
      { name: 'a', parent: 'b', description: '' }, { name: 'b', parent: 'a', description: '' }, { name: 'c', parent: null, description: '' },
    ] })
    expect([...pos.keys()].sort()).toEqual(['a', 'b', 'c'])
  })
})
