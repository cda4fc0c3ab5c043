import { applyEdit, type TagId } from '../../core/model'
import { chatbotDoc } from '../../core/model/testDoc'
import { createNodeBuilder, edgesOf } from './forestNodes'
import { layoutOf } from './layoutCache'

const inputs = (doc: ReturnType<typeof chatbotDoc>) => ({
  tags: doc.tags,
  layout: layoutOf(doc.tags),
  selected: new Set<TagId>(),
  draggable: true,
  dragPositions: null,
  drop: null,
})

describe('node builder', () => {
  it('exposes each tag by name, parent → child edges', () => {
    const doc = chatbotDoc()
    const nodes = createNodeBuilder()(inputs(doc))
    expect(nodes.map((n) => n.ariaLabel)).toEqual(['system', 'system_prompt', 'model', 'model_identity', 'user'])
    const byId = new Map<string, string>(doc.tags.map((t) => [t.id, t.name]))
    expect(edgesOf(doc.tags).map((e) => `${byId.get(e.source)}->${byId.get(e.target)}`)).toEqual([
      'system->system_prompt',
      'system->model',
      'system->model_identity',
    ])
  })

  it('a scope click hands React Flow the same array (grants are not in the nodes); a selection rebuilds only the tags it touches', () => {
    const build = createNodeBuilder()
    const doc = chatbotDoc()
    const before = build(inputs(doc))
    expect(build(inputs(doc))).toBe(before)
    const model = doc.tags.find((t) => t.name === 'model')!.id
    const granted = applyEdit(doc, { type: 'setAccess', ids: [model], access: 'read_only' })
    expect(granted.tags).toBe(doc.tags)
    expect(build(inputs(granted))).toBe(before)
    const after = build({ ...inputs(granted), selected: new Set([model]) })
    const changed = after.filter((n, i) => n !== before[i]).map((n) => n.ariaLabel)
    expect(changed).toEqual(['model'])
    expect(after[2].selected).toBe(true)
  })
})
