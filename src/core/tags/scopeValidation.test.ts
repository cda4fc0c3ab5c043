import { buildDomain } from './forest'
import { hasErrors, validateScope } from './scopeValidation'

const domain = buildDomain({
  tags: [
    { name: 'system', parent: null, description: '' },
    { name: 'external', parent: 'system', description: '' },
    { name: 'user', parent: 'external', description: '' },
    { name: 'api', parent: 'external', description: '' },
    { name: 'other', parent: null, description: '' },
  ],
})
const codes = (scope: string[], ro: string[]) => validateScope(domain, scope, ro).map((f) => f.code)

describe('validateScope', () => {
  it('accepts a clean antichain with no findings', () => {
    expect(validateScope(domain, ['user', 'other'], [])).toEqual([])
    expect(validateScope(domain, [], ['api'])).toEqual([])
  })

  it('flags unknown tags as errors, naming the set', () => {
    const [f] = validateScope(domain, ['ghost'], [])
    expect(f).toMatchObject({ code: 'unknown_tag', severity: 'error', tags: ['ghost'], set: 'scope' })
    expect(validateScope(domain, ['user'], ['nope'])[0]).toMatchObject({ code: 'unknown_tag', set: 'read_only' })
  })

  it('flags both sets empty, as the reference does', () => {
    const findings = validateScope(domain, [], [])
    expect(findings.map((f) => f.code)).toEqual(['empty_scope'])
    expect(hasErrors(findings)).toBe(true)
  })

  it('explains a scope that is not an antichain', () => {
    const [f] = validateScope(domain, ['user', 'external'], [])
    expect(f.code).toBe('scope_not_antichain')
    expect(f.tags).toEqual(['user', 'external'])
    expect(f.message).toContain('user and its ancestor external are both granted read & write: external already covers user')
  })

  it('finds the nearest granted ancestor even two levels up', () => {
    expect(validateScope(domain, ['user', 'system'], [])[0].tags).toEqual(['user', 'system'])
  })

  it('flags a read_only that is not an antichain', () => {
    expect(codes(['other'], ['api', 'system'])).toEqual(['read_only_not_antichain'])
  })

  it('warns when read_only is already covered by scope (itself or an ancestor)', () => {
    expect(codes(['external'], ['user'])).toEqual(['read_only_covered_by_scope'])
    const same = validateScope(domain, ['api'], ['api'])
    expect(same.map((f) => f.severity)).toEqual(['warning'])
    expect(hasErrors(same)).toBe(false)
  })

  it('notes the sanctioned pattern: writable subtree inside a read-only ancestor', () => {
    const [f] = validateScope(domain, ['api'], ['system'])
    expect(f).toMatchObject({ code: 'scope_under_read_only', severity: 'info', tags: ['api', 'system'] })
  })
})
