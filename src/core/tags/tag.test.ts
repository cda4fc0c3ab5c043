import { SecurityDomainTag, scopeIncludes, scopeOf } from './tag'

describe('SecurityDomainTag', () => {
  const system = new SecurityDomainTag('system')
  const external = new SecurityDomainTag('external', system)
  const user = new SecurityDomainTag('user', external)
  const api = new SecurityDomainTag('api', external)

  it('includes itself and its descendants, not ancestors or siblings', () => {
    expect(system.includes(user)).toBe(true)
    expect(external.includes(api)).toBe(true)
    expect(user.includes(user)).toBe(true)
    expect(external.includes(system)).toBe(false)
    expect(user.includes(api)).toBe(false)
  })

  it('compares by value but includes by identity', () => {
    const lookalike = new SecurityDomainTag('user', new SecurityDomainTag('external', new SecurityDomainTag('system')))
    expect(lookalike.equals(user)).toBe(true)
    expect(user.includes(lookalike)).toBe(false)
    expect(lookalike.includes(user)).toBe(false)
    expect(system.includes(lookalike)).toBe(false)
  })

  it('is immutable', () => {
    expect(() => {
      ;(user as unknown as { name: string }).name = 'x'
    }).toThrow(TypeError)
  })

  it('dedupes look-alikes in a scope like a Python frozenset, keeping the first', () => {
    const copy = new SecurityDomainTag('system')
    const scope = scopeOf([system, copy, user])
    expect(scope.size).toBe(2)
    expect(scope.has(system)).toBe(true)
    expect(scope.has(copy)).toBe(false)
  })

  it('scope_includes: any member covers; empty covers nothing', () => {
    expect(scopeIncludes([api, external], user)).toBe(true)
    expect(scopeIncludes([api], user)).toBe(false)
    expect(scopeIncludes([], user)).toBe(false)
  })
})
