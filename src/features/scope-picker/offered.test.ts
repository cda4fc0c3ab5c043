import { ManifestSchema, type ManifestInput } from '../../protocol/schemas'
import { offeredFor } from './offered'

const input: ManifestInput = {
  protocol: 'superred-target-http/1',
  name: 'demo',
  security_domain: [
    { name: 'system', parent: null },
    { name: 'system_prompt', parent: 'system' },
    { name: 'model_identity', parent: 'system' },
    { name: 'user', parent: null },
  ],
  controllables: [
    { name: 'user_message', security_domain: 'user', description: "the user's message" },
    { name: 'prompt_override', security_domain: 'system_prompt' },
  ],
  observables: [
    { name: 'model_name', security_domain: 'model_identity', content: 'gpt' },
    { name: 'reply', security_domain: 'user' },
  ],
}
const manifest = ManifestSchema.parse(input)
const names = (l: Array<{ name: string }>) => l.map((x) => x.name)

describe("offeredFor (the engine's fronts 1 and 2 over a manifest)", () => {
  it('offers the writable controllables and the visible observables', () => {
    const o = offeredFor(manifest, ['user'], [])
    expect(names(o.controllables)).toEqual(['user_message'])
    expect(names(o.observables)).toEqual(['reply'])
    expect(o.unknown).toEqual([])
  })

  it('lists a read-only controllable as an observable, never as a controllable', () => {
    const o = offeredFor(manifest, ['user'], ['system'])
    expect(names(o.controllables)).toEqual(['user_message'])
    expect(o.observables.map((x) => [x.name, x.readOnlyControllable])).toEqual([
      ['model_name', false],
      ['reply', false],
      ['prompt_override', true],
    ])
  })

  it('a scope tag inside a read-only ancestor is writable (read & write overrules read-only)', () => {
    const o = offeredFor(manifest, ['system_prompt'], ['system'])
    expect(names(o.controllables)).toEqual(['prompt_override'])
    expect(names(o.observables)).toEqual(['model_name'])
  })

  it('reports granted names the target does not have: they would match nothing', () => {
    const o = offeredFor(manifest, ['users'], [])
    expect(o.controllables).toEqual([])
    expect(o.unknown).toEqual(['users'])
  })
})
