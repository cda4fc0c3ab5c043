import { docFromForest } from '../../core/model'
import { CHATBOT_FOREST } from '../../core/tags'
import { designerStore } from '../../stores/designerStore'
import { newTagId } from '../../stores/ids'
import { runShortcut, type ShortcutContext } from './shortcuts'

const ctx: ShortcutContext = { fitView: vi.fn(), zoomIn: vi.fn(), zoomOut: vi.fn(), focusTag: vi.fn(), toggleHelp: vi.fn() }
const key = (k: string, target: HTMLElement, init: KeyboardEventInit = {}) => {
  const e = new KeyboardEvent('keydown', { key: k, bubbles: true, ...init })
  Object.defineProperty(e, 'target', { value: target })
  return e
}
const s = () => designerStore.getState()
const names = () => s().history.present.tags.map((t) => t.name)

describe('keyboard shortcuts', () => {
  let canvas: HTMLElement
  let button: HTMLElement
  beforeEach(() => {
    document.body.innerHTML =
      '<div class="forest-canvas"><div class="react-flow__node" tabindex="0"></div></div><div class="toolbar"><button>x</button></div>'
    canvas = document.querySelector('.react-flow__node')!
    button = document.querySelector('button')!
    s().load(docFromForest(CHATBOT_FOREST, newTagId))
    s().select([s().history.present.tags.find((t) => t.name === 'user')!.id])
  })

  it('Tab on the canvas adds a child to the selected tag and opens its name', () => {
    expect(runShortcut(key('Tab', canvas), ctx)).toBe(true)
    expect(names()).toContain('new_tag')
    expect(s().editing).toBe(s().selected[0])
  })

  it('Tab in the toolbar keeps moving the focus: no tag is added', () => {
    expect(runShortcut(key('Tab', button), ctx)).toBe(false)
    expect(names()).not.toContain('new_tag')
  })

  it('undo works from anywhere on the page', () => {
    runShortcut(key('Delete', canvas), ctx)
    expect(names()).not.toContain('user')
    expect(runShortcut(key('z', button, { ctrlKey: true }), ctx)).toBe(true)
    expect(names()).toContain('user')
  })

  it('A cycles the selected tag: read & write, read only, not granted', () => {
    const user = s().selected[0]
    runShortcut(key('a', canvas), ctx)
    expect(s().history.present.scope).toEqual([user])
    runShortcut(key('a', canvas), ctx)
    expect(s().history.present.readOnly).toEqual([user])
    runShortcut(key('a', canvas), ctx)
    expect([s().history.present.scope, s().history.present.readOnly]).toEqual([[], []])
  })

  it('arrows walk the tree: up to the parent, down to the first child, across siblings', () => {
    const id = (n: string) => s().history.present.tags.find((t) => t.name === n)!.id
    s().select([id('model')])
    runShortcut(key('ArrowRight', canvas), ctx)
    expect(s().selected).toEqual([id('model_identity')])
    runShortcut(key('ArrowUp', canvas), ctx)
    expect(s().selected).toEqual([id('system')])
    runShortcut(key('ArrowDown', canvas), ctx)
    expect(s().selected).toEqual([id('system_prompt')])
    expect(ctx.focusTag).toHaveBeenLastCalledWith(id('system_prompt'))
  })
})
