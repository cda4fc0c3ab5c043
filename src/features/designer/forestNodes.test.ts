import { applyEdit, type TagId } from '../../core/model'
import { chatbotDoc } from '../../core/model/testDoc'
import { coverageOf } from '../../stores/selectors'
import { createNodeBuilder, edgesOf } from './forestNodes'
import { layoutOf } from './layoutCache'

const inputs = (doc: ReturnType<typeof chatbotDoc>) => ({
  doc, layout: layoutOf(doc.tags), coverage: coverageOf(doc.tags, doc.scope, doc.readOnly),
  selected: new Set<TagId>(), draggable: true, dragPositions: null, drop: null,
})

describe('node builder', () => {
  it('exposes each tag by name with its grant in data-access, parent → child edges', () => {
    const doc = chatbotDoc()
    const nodes = createNodeBuilder()(inputs(doc))
    expect(nodes.map((n) => n.ariaLabel)).toEqual(['system', 'system_prompt', 'model', 'model_identity', 'user'])
    expect(nodes.every((n) => n.domAttributes && (n.domAttributes as Record<string, string>)['data-access'] === 'none')).toBe(true)
    const byId = new Map<string, string>(doc.tags.map((t) => [t.id, t.name]))
    expect(edgesOf(doc.tags).map((e) => `${byId.get(e.source)}->${byId.get(e.target)}`)).toEqual(['system->system_prompt', 'system->model', 'system->model_identity'])
  })

  it('after a click, rebuilds only the tags whose grant or coverage changed, and reuses the rest by identity', () => {
    const build = createNodeBuilder()
    const doc = chatbotDoc()
    const before = build(inputs(doc))
    expect(build(inputs(doc))).toBe(before)
    const model = doc.tags.find((t) => t.name === 'model')!.id
    const after = build(inputs(applyEdit(doc, { type: 'setAccess', ids: [model], access: 'read_only' })))
    const changed = after.filter((n, i) => n !== before[i]).map((n) => n.ariaLabel)
    expect(changed).toEqual(['model'])
    expect((after[2].domAttributes as Record<string, string>)['data-access']).toBe('read_only')
  })
})
