import { CHATBOT_FOREST, type Forest } from '../tags'
import { docReplacingForest, lostGrants } from './forestReplacement'
import { counterIds, id, docOf } from './testDoc'

const forest = (...pairs: Array<[string, string | null]>): Forest => ({
  tags: pairs.map(([name, parent]) => ({ name, parent, description: '' })),
})

describe('replacing a forest', () => {
  it('keeps the id of every tag whose name stays, wherever it moves, and gives new names new ids', () => {
    const before = docOf([
      ['system', null],
      ['model', 'system'],
      ['user', null],
    ])
    const after = docReplacingForest(before, forest(['user', null], ['model', 'user'], ['tools', null]), counterIds('n'))
    expect(after.tags.map((t) => [t.name, t.id])).toEqual([
      ['user', id('user')],
      ['model', id('model')],
      ['tools', 'n1'],
    ])
    expect(after.tags.find((t) => t.name === 'model')!.parent).toBe(id('user'))
  })

  it('grants the names asked for, by the kept ids', () => {
    const before = docOf(
      [
        ['system', null],
        ['user', null],
      ],
      ['user'],
    )
    const after = docReplacingForest(before, CHATBOT_FOREST, counterIds('n'), { scope: ['user', 'gone'], readOnly: ['system_prompt'] })
    expect(after.scope).toEqual([id('user')])
    expect(after.readOnly).toHaveLength(1)
    expect(after.tags.find((t) => t.id === after.readOnly[0])!.name).toBe('system_prompt')
  })

  it("a duplicate name (allowed while editing) keeps its first tag's id", () => {
    const before = {
      tags: [
        { id: id('a1'), name: 'a', parent: null, description: '' },
        { id: id('a2'), name: 'a', parent: null, description: '' },
      ],
      scope: [],
      readOnly: [],
    }
    expect(docReplacingForest(before, forest(['a', null]), counterIds()).tags.map((t) => t.id)).toEqual([id('a1')])
  })

  it("names each saved threat model that loses granted tags, with those tags in the old forest's order", () => {
    const before = docReplacingForest({ tags: [] }, CHATBOT_FOREST, counterIds('c'))
    const idOf = (name: string) => before.tags.find((t) => t.name === name)!.id
    const models = [
      { name: 'blind user', scope: [idOf('user')], readOnly: [] },
      { name: 'knows the model', scope: [idOf('user'), idOf('model_identity')], readOnly: [] },
      { name: 'sees the prompt', scope: [idOf('user')], readOnly: [idOf('system_prompt')] },
      { name: 'already broken', scope: [id('deleted-long-ago')], readOnly: [] },
    ]
    const after = docReplacingForest(before, forest(['user', null], ['tools', null]), counterIds('a'))
    expect(lostGrants(models, before, after)).toEqual([
      { model: 'knows the model', tags: ['model_identity'] },
      { model: 'sees the prompt', tags: ['system_prompt'] },
    ])
    expect(lostGrants(models, before, before)).toEqual([])
  })
})
