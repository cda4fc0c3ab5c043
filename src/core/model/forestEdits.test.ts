import fc from 'fast-check'
import { buildDomain, CHATBOT_FOREST, distinctCombinations } from '../tags'
import { docFromForest, toForest, type DesignDoc } from './doc'
import { applyEdit, moveProblem, placeOf, type ForestEdit } from './forestEdits'
import { chatbotDoc, counterIds, docOf, id, names, parentName } from './testDoc'

const tag = (name: string, parent: string | null = null, description = '') => ({
  id: id(name),
  name,
  parent: parent === null ? null : id(parent),
  description,
})

describe('forest edits', () => {
  it('builds the chatbot forest from scratch, edit by edit, to exactly the guide forest', () => {
    let doc: DesignDoc = { tags: [], scope: [], readOnly: [] }
    const edits: ForestEdit[] = [
      { type: 'addTag', tag: tag('system') },
      { type: 'addTag', tag: tag('user') },
      { type: 'addTag', tag: tag('system_prompt', 'system') },
      { type: 'addTag', tag: tag('model', 'system') },
      { type: 'addTag', tag: tag('model_identity', 'system') },
      ...CHATBOT_FOREST.tags.map((t): ForestEdit => ({ type: 'describeTag', id: id(t.name), description: t.description })),
      ...CHATBOT_FOREST.tags.map((t): ForestEdit => ({ type: 'setReferences', id: id(t.name), references: t.references ?? [] })),
    ]
    for (const e of edits) doc = applyEdit(doc, e)
    expect(toForest(doc)).toEqual(CHATBOT_FOREST)
  })

  it('inserts a child at a given sibling index', () => {
    const doc = applyEdit(
      docOf([
        ['r', null],
        ['a', 'r'],
        ['b', 'r'],
      ]),
      { type: 'addTag', tag: tag('x', 'r'), index: 1 },
    )
    expect(names(doc)).toEqual(['r', 'a', 'x', 'b'])
  })

  it('refuses an add under a missing parent or with a taken id', () => {
    const doc = docOf([['r', null]])
    expect(applyEdit(doc, { type: 'addTag', tag: tag('x', 'ghost') })).toBe(doc)
    expect(applyEdit(doc, { type: 'addTag', tag: tag('r') })).toBe(doc)
  })

  it('renames and describes in place, and a no-op returns the same document', () => {
    const doc = docOf(
      [
        ['r', null],
        ['a', 'r'],
      ],
      ['a'],
    )
    const renamed = applyEdit(doc, { type: 'renameTag', id: id('a'), name: 'alpha' })
    expect(names(renamed)).toEqual(['r', 'alpha'])
    expect(renamed.scope).toEqual([id('a')])
    expect(applyEdit(renamed, { type: 'renameTag', id: id('a'), name: 'alpha' })).toBe(renamed)
    expect(applyEdit(doc, { type: 'describeTag', id: id('r'), description: 'root' }).tags[0].description).toBe('root')
  })

  it('deletes a tag with its whole subtree and drops it from scope and read_only', () => {
    const doc = docOf(
      [
        ['r', null],
        ['a', 'r'],
        ['a1', 'a'],
        ['b', 'r'],
        ['u', null],
      ],
      ['a1', 'u'],
      ['b'],
    )
    const next = applyEdit(doc, { type: 'deleteTags', ids: [id('a')] })
    expect(names(next)).toEqual(['r', 'b', 'u'])
    expect(next.scope).toEqual([id('u')])
    expect(next.readOnly).toEqual([id('b')])
    expect(applyEdit(doc, { type: 'deleteTags', ids: [id('ghost')] })).toBe(doc)
  })

  it('reparents onto another tag, and onto the canvas as a root', () => {
    const doc = chatbotDoc()
    const ids = new Map(doc.tags.map((t) => [t.name, t.id]))
    const moved = applyEdit(doc, { type: 'moveTags', ids: [ids.get('model')!], parent: ids.get('user')!, index: 0 })
    expect(parentName(moved, 'model')).toBe('user')
    expect(names(moved)).toEqual(['system', 'system_prompt', 'model_identity', 'user', 'model'])
    const root = applyEdit(moved, { type: 'moveTags', ids: [ids.get('model')!], parent: null, index: 0 })
    expect(parentName(root, 'model')).toBeNull()
    expect(buildDomain(toForest(root)).roots.map((t) => t.name)).toEqual(['model', 'system', 'user'])
  })

  it('reorders siblings, which reorders the distinct combinations', () => {
    const doc = docOf([
      ['r', null],
      ['a', 'r'],
      ['b', 'r'],
    ])
    const swapped = applyEdit(doc, { type: 'moveTags', ids: [id('b')], parent: id('r'), index: 0 })
    expect(names(swapped)).toEqual(['r', 'b', 'a'])
    const order = (d: DesignDoc) => distinctCombinations(buildDomain(toForest(d))).map((c) => c.map((t) => t.name).join('+'))
    expect(order(doc)).toEqual(['', 'b', 'a', 'a+b', 'r'])
    expect(order(swapped)).toEqual(['', 'a', 'b', 'b+a', 'r'])
  })

  it('refuses to move a tag under itself or its own descendant', () => {
    const doc = docOf([
      ['r', null],
      ['a', 'r'],
      ['a1', 'a'],
    ])
    expect(applyEdit(doc, { type: 'moveTags', ids: [id('a')], parent: id('a1'), index: 0 })).toBe(doc)
    expect(moveProblem(doc, [id('a')], id('a1'))).toBe('a1 is inside the subtree being moved')
    expect(moveProblem(doc, [id('a')], id('a'))).toBe('a cannot become its own child')
    expect(moveProblem(doc, [id('a1')], id('r'))).toBeNull()
  })

  it('moves a multi-selection as consecutive siblings, keeping subtrees together', () => {
    const doc = docOf([
      ['r', null],
      ['a', 'r'],
      ['a1', 'a'],
      ['b', 'r'],
      ['s', null],
    ])
    const next = applyEdit(doc, { type: 'moveTags', ids: [id('b'), id('a'), id('a1')], parent: id('s'), index: 0 })
    expect(names(next)).toEqual(['r', 's', 'a', 'a1', 'b'])
    expect(placeOf(next, id('b'))).toMatchObject({ parent: id('s'), index: 1 })
  })

  it('sets access: one state per tag, unknown ids ignored', () => {
    let doc = docOf([
      ['r', null],
      ['a', 'r'],
    ])
    doc = applyEdit(doc, { type: 'setAccess', ids: [id('a')], access: 'scope' })
    expect(doc.scope).toEqual([id('a')])
    doc = applyEdit(doc, { type: 'setAccess', ids: [id('a')], access: 'read_only' })
    expect([doc.scope, doc.readOnly]).toEqual([[], [id('a')]])
    doc = applyEdit(doc, { type: 'setAccess', ids: [id('a'), id('ghost')], access: 'none' })
    expect([doc.scope, doc.readOnly]).toEqual([[], []])
    expect(applyEdit(doc, { type: 'setAccess', ids: [id('a')], access: 'none' })).toBe(doc)
  })

  it('keeps pre-order and the forest valid under any sequence of moves (property)', () => {
    const base = docFromForest(CHATBOT_FOREST, counterIds())
    const ids = base.tags.map((t) => t.id)
    fc.assert(
      fc.property(
        fc.array(fc.record({ who: fc.nat(ids.length - 1), to: fc.option(fc.nat(ids.length - 1)), at: fc.nat(5) }), { maxLength: 20 }),
        (moves) => {
          let doc = base
          for (const m of moves)
            doc = applyEdit(doc, { type: 'moveTags', ids: [ids[m.who]], parent: m.to === null ? null : ids[m.to], index: m.at })
          expect(doc.tags).toHaveLength(ids.length)
          const seen = new Set<string>()
          for (const t of doc.tags) {
            if (t.parent !== null) expect(seen.has(t.parent)).toBe(true)
            seen.add(t.id)
          }
          expect(() => buildDomain(toForest(doc))).not.toThrow()
        },
      ),
      { numRuns: 200 },
    )
  })
})
