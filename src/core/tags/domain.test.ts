import { SecurityDomain, SecurityDomainError } from './domain'
import { buildDomain } from './forest'
import { SecurityDomainTag } from './tag'

describe('SecurityDomain', () => {
  it('keeps roots and children in input order', () => {
    const a = new SecurityDomainTag('a')
    const b = new SecurityDomainTag('b')
    const c2 = new SecurityDomainTag('c2', a)
    const c1 = new SecurityDomainTag('c1', a)
    const d = new SecurityDomainTag('d', null)
    const domain = new SecurityDomain([b, c2, a, c1, d])
    expect(domain.roots.map((t) => t.name)).toEqual(['b', 'a', 'd'])
    expect(domain.childrenOf(a).map((t) => t.name)).toEqual(['c2', 'c1'])
  })

  it('rejects a duplicate name with the reference message, also the same object twice', () => {
    const a = new SecurityDomainTag('a')
    expect(() => new SecurityDomain([a, a])).toThrow("Duplicate tag name: 'a'")
    expect(() => new SecurityDomain([a, new SecurityDomainTag('a')])).toThrow(SecurityDomainError)
  })

  it('rejects a parent missing from the list, by name', () => {
    const p = new SecurityDomainTag('p')
    const c = new SecurityDomainTag('c', p)
    expect(() => new SecurityDomain([c])).toThrow("Tag 'c' has parent 'p' which is not in the domain")
  })

  it('checks duplicates before parents, as the reference does', () => {
    const c = new SecurityDomainTag('c', new SecurityDomainTag('p'))
    expect(() => new SecurityDomain([c, new SecurityDomainTag('x'), new SecurityDomainTag('x')])).toThrow(/Duplicate/)
  })

  it('accepts a look-alike parent object carrying a listed name', () => {
    const p = new SecurityDomainTag('p')
    const c = new SecurityDomainTag('c', new SecurityDomainTag('p'))
    const domain = new SecurityDomain([p, c])
    expect(domain.childrenOf(p)).toEqual([c])
    expect(p.includes(c)).toBe(false)
  })

  it('accepts an empty list and is immutable', () => {
    const domain = new SecurityDomain([])
    expect(domain.roots).toEqual([])
    expect(() => {
      ;(domain as unknown as { roots: unknown }).roots = []
    }).toThrow(TypeError)
  })
})

describe('buildDomain (plain forest)', () => {
  it('builds tags in any order with shared parent objects', () => {
    const d = buildDomain({
      tags: [
        { name: 'c', parent: 'p', description: '' },
        { name: 'p', parent: null, description: '' },
      ],
    })
    expect(d.get('p')!.includes(d.get('c')!)).toBe(true)
    expect(d.roots.map((t) => t.name)).toEqual(['p'])
  })

  it('reports duplicates, dangling parents and cycles with codes', () => {
    const err = (tags: Array<{ name: string; parent: string | null }>) => {
      try {
        buildDomain({ tags: tags.map((t) => ({ ...t, description: '' })) })
      } catch (e) {
        return e as SecurityDomainError
      }
      throw new Error('expected a failure')
    }
    expect(
      err([
        { name: 'a', parent: null },
        { name: 'a', parent: null },
      ]).code,
    ).toBe('duplicate_tag')
    expect(err([{ name: 'a', parent: 'zz' }]).message).toBe("Tag 'a' has parent 'zz' which is not in the domain")
    const cycle = err([
      { name: 'a', parent: 'b' },
      { name: 'b', parent: 'a' },
    ])
    expect(cycle.code).toBe('parent_cycle')
    expect(cycle.message).toContain('a → b → a')
  })
})
