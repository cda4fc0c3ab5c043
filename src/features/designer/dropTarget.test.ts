import { docOf, id } from '../../core/model/testDoc'
import { dropAt } from './dropTarget'
import { layoutOf } from './layoutCache'

const doc = docOf([
  ['system', null],
  ['a', 'system'],
  ['b', 'system'],
  ['c', 'system'],
  ['user', null],
])
const layout = layoutOf(doc.tags)
const at = (name: string, rel: number) => {
  const p = layout.get(id(name))!
  return { x: p.x + rel * p.width, y: p.y + p.height / 2 }
}

describe('dropAt', () => {
  it('over the middle of a tag: becomes its last child', () => {
    expect(dropAt(doc, [id('user')], at('b', 0.5), layout)).toMatchObject({
      parent: id('b'),
      index: 0,
      over: { id: id('b'), side: 'into' },
    })
    expect(dropAt(doc, [id('user')], at('system', 0.5), layout)).toMatchObject({ parent: id('system'), index: 3 })
  })

  it('over the left or right edge of a tag: its sibling, before or after it', () => {
    expect(dropAt(doc, [id('a')], at('c', 0.9), layout)).toMatchObject({
      parent: id('system'),
      index: 2,
      hint: 'Release: a goes after c (3rd of 3 under system)',
    })
    expect(dropAt(doc, [id('c')], at('a', 0.1), layout)).toMatchObject({ parent: id('system'), index: 0 })
    expect(dropAt(doc, [id('a')], at('user', 0.1), layout)).toMatchObject({ parent: null, index: 1 })
  })

  it('on empty canvas: a root, placed among the roots by x', () => {
    const far = { x: layout.get(id('user'))!.x + 1000, y: -500 }
    expect(dropAt(doc, [id('b')], far, layout)).toMatchObject({
      parent: null,
      index: 2,
      over: null,
      hint: 'Release on empty canvas: b becomes a root (3rd of 3)',
    })
  })

  it('never onto the dragged subtree itself', () => {
    expect(dropAt(doc, [id('system')], at('a', 0.5), layout).over).toBeNull()
  })
})
