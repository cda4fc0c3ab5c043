import { docFromForest, type TagId } from '../core/model'
import { CHATBOT_FOREST } from '../core/tags'
import { createDesignerStore } from './designerStore'
import { newTagId } from './ids'
import { coverageFor, notesFor, scopeFindingsOf, selectDoc } from './selectors'

function designer() {
  const store = createDesignerStore(docFromForest(CHATBOT_FOREST, newTagId))
  const id = (name: string): TagId => selectDoc(store.getState()).tags.find((t) => t.name === name)!.id
  return { store, s: () => store.getState(), doc: () => selectDoc(store.getState()), id }
}

describe('designer store', () => {
  it('undoes and redoes every kind of edit, the scope included', () => {
    const d = designer()
    const original = d.doc()
    expect(d.s().dispatch({ type: 'setAccess', ids: [d.id('user')], access: 'scope' })).toBe(true)
    expect(d.s().dispatch({ type: 'renameTag', id: d.id('model'), name: 'llm' })).toBe(true)
    expect(d.s().dispatch({ type: 'renameTag', id: d.id('llm'), name: 'llm' })).toBe(false)
    expect(d.s().history.past).toHaveLength(2)
    d.s().undo()
    expect(d.doc().tags.map((t) => t.name)).toContain('model')
    d.s().undo()
    expect(d.doc()).toBe(original)
    d.s().redo()
    d.s().redo()
    expect(d.doc().scope).toEqual([d.id('user')])
    expect(d.doc().tags.map((t) => t.name)).toContain('llm')
  })

  it('selects, toggles and adds', () => {
    const d = designer()
    d.s().select([d.id('user')])
    d.s().select([d.id('model'), d.id('user')], 'toggle')
    expect(d.s().selected).toEqual([d.id('model')])
    d.s().select([d.id('system')], 'add')
    expect(d.s().selected).toEqual([d.id('model'), d.id('system')])
  })

  it('derives findings beside the tags involved, live on each click', () => {
    const d = designer()
    d.s().dispatch({ type: 'setAccess', ids: [d.id('system')], access: 'scope' })
    expect(notesFor(d.doc(), d.id('model'))).toEqual([])
    d.s().dispatch({ type: 'setAccess', ids: [d.id('model')], access: 'scope' })
    const onModel = notesFor(d.doc(), d.id('model'))
    expect(onModel).toHaveLength(1)
    expect(onModel[0]).toMatchObject({ primary: true, kind: 'scope', severity: 'error' })
    expect(onModel[0].text).toContain('model and its ancestor system are both granted read & write: system already covers model')
    expect(notesFor(d.doc(), d.id('system'))[0]).toMatchObject({ primary: false })
    expect(coverageFor(d.doc(), d.id('model_identity'))).toEqual({ effective: 'write', via: d.id('system') })
    d.s().dispatch({ type: 'setAccess', ids: [d.id('model')], access: 'none' })
    expect(notesFor(d.doc(), d.id('model'))).toEqual([])
  })

  it('says the scope cannot be checked while the forest is invalid', () => {
    const d = designer()
    d.s().dispatch({ type: 'renameTag', id: d.id('model'), name: 'user' })
    expect(scopeFindingsOf(d.doc())[0]).toMatchObject({ code: 'forest_invalid' })
    const notes = notesFor(d.doc(), d.doc().tags[2].id)
    expect(notes.find((n) => n.severity === 'error')!.text).toMatch(/^Duplicate tag name: 'user'/)
    expect(notes.find((n) => n.severity === 'info')!.text).toMatch(/independent channels are independent trees/)
  })
})
