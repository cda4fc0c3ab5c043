import { inForestOrder, pairNames } from './doc'
import { tagIdOf } from './index'

describe('inForestOrder: the one order a combination lists its tags in', () => {
  const forest = { tags: [{ name: 'system' }, { name: 'system_prompt' }, { name: 'user' }, { name: 'tools' }, { name: 'tools_inbox' }] }

  it('sorts names by their place in the forest, whatever order they were given in', () => {
    expect(inForestOrder(['tools_inbox', 'user', 'system_prompt'], forest)).toEqual(['system_prompt', 'user', 'tools_inbox'])
  })

  it('keeps names the forest does not know after the rest, in their given order, and keeps all without a forest', () => {
    expect(inForestOrder(['zeta', 'user', 'alpha', 'system'], forest)).toEqual(['system', 'user', 'zeta', 'alpha'])
    expect(inForestOrder(['b', 'a'], null)).toEqual(['b', 'a'])
  })

  it('is what pairNames uses: a scope picked in any order reads in forest order', () => {
    const id = tagIdOf
    const doc = { tags: forest.tags.map((t) => ({ id: id(t.name), name: t.name, parent: null, description: '' })) }
    expect(pairNames(doc, { scope: [id('tools_inbox'), id('system_prompt')], readOnly: [id('user'), id('gone')] })).toEqual({
      scope: ['system_prompt', 'tools_inbox'],
      readOnly: ['user'],
    })
  })
})
