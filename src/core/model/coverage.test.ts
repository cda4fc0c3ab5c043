import { attackerReading } from './attackerReading'
import { compareThreatModels } from './compare'
import { coverage } from './coverage'
import { chatbotDoc, docOf, id } from './testDoc'

const tree = docOf([['system', null], ['external', 'system'], ['user', 'external'], ['api', 'external'], ['other', null]])
const eff = (scope: string[], ro: string[]) => {
  const c = coverage(tree.tags, { scope: scope.map(id), readOnly: ro.map(id) })
  return Object.fromEntries(tree.tags.map((t) => [t.name, `${c.get(t.id)!.effective}${c.get(t.id)!.via ? `:${c.get(t.id)!.via!.slice(3)}` : ''}`]))
}

describe('coverage', () => {
  it('a granted tag covers its subtree', () => {
    expect(eff(['external'], [])).toEqual({ system: 'none', external: 'write:external', user: 'write:external', api: 'write:external', other: 'none' })
  })

  it('read & write overrules read-only, both ways round', () => {
    expect(eff(['api'], ['system'])).toMatchObject({ system: 'read:system', external: 'read:system', user: 'read:system', api: 'write:api' })
    expect(eff(['system'], ['user'])).toMatchObject({ user: 'write:system' })
  })
})

describe('attackerReading', () => {
  it('reads scope={user} over the chatbot forest as the guide does', () => {
    const doc = chatbotDoc()
    const user = doc.tags.find((t) => t.name === 'user')!.id
    const r = attackerReading(doc.tags, { scope: [user], readOnly: [] })
    expect(r.summary).toBe('Can: send the user message and see the reply. Blind to system.')
  })

  it('lists read-only surfaces and several writes', () => {
    const doc = chatbotDoc()
    const by = (n: string) => doc.tags.find((t) => t.name === n)!.id
    const r = attackerReading(doc.tags, { scope: [by('user'), by('model')], readOnly: [by('system_prompt')] })
    expect(r.summary).toBe(
      "Can: rewrite the model's responses; and send the user message and see the reply. Sees, without being able to change: system_prompt. Blind to model_identity.")
  })

  it('says when nothing is granted', () => {
    expect(attackerReading(tree.tags, { scope: [], readOnly: [] }).summary).toMatch(/^No attacker yet/)
  })
})

describe('compareThreatModels', () => {
  it('lists differing grants and what they change', () => {
    const d = compareThreatModels(tree.tags, { scope: [id('user')], readOnly: [] }, { scope: [id('user')], readOnly: [id('system')] })
    expect(d.grants).toEqual([{ id: id('system'), name: 'system', a: 'none', b: 'read_only' }])
    expect(d.effects.map((e) => `${e.name}:${e.a}->${e.b}`)).toEqual(['system:none->read', 'external:none->read', 'api:none->read'])
  })
})
