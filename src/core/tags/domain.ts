import { SecurityDomainTag } from './tag'

export type DomainErrorCode = 'duplicate_tag' | 'parent_not_in_domain' | 'parent_cycle' | 'immutable'

/** A forest that the reference would refuse, with its exact message. */
export class SecurityDomainError extends Error {
  readonly code: DomainErrorCode
  readonly tag: string

  constructor(code: DomainErrorCode, tag: string, message: string) {
    super(message)
    this.name = 'SecurityDomainError'
    this.code = code
    this.tag = tag
  }
}

/**
 * An ordered forest of tags. Input order is meaningful: it fixes the order of
 * roots, of children, and so of distinct combinations.
 */
export class SecurityDomain {
  readonly tags: readonly SecurityDomainTag[]
  readonly roots: readonly SecurityDomainTag[]
  private readonly byName: ReadonlyMap<string, SecurityDomainTag>
  private readonly childrenByName: ReadonlyMap<string, readonly SecurityDomainTag[]>

  constructor(tags: readonly SecurityDomainTag[]) {
    const byName = new Map<string, SecurityDomainTag>()
    for (const tag of tags) {
      if (byName.has(tag.name)) {
        throw new SecurityDomainError('duplicate_tag', tag.name, `Duplicate tag name: '${tag.name}'`)
      }
      byName.set(tag.name, tag)
    }
    // Only parent *names* are checked, as in the reference: a look-alike parent
    // object passes here and then fails to match at run time (identity).
    for (const tag of byName.values()) {
      if (tag.parent !== null && !byName.has(tag.parent.name)) {
        throw new SecurityDomainError(
          'parent_not_in_domain',
          tag.name,
          `Tag '${tag.name}' has parent '${tag.parent.name}' which is not in the domain`,
        )
      }
    }
    const children = new Map<string, SecurityDomainTag[]>()
    for (const tag of tags) {
      if (tag.parent === null) continue
      const siblings = children.get(tag.parent.name)
      if (siblings) siblings.push(tag)
      else children.set(tag.parent.name, [tag])
    }
    this.tags = Object.freeze([...tags])
    this.roots = Object.freeze(tags.filter((t) => t.parent === null))
    this.byName = byName
    this.childrenByName = children
    Object.freeze(this)
  }

  /** The tag listed under this name, if any. */
  get(name: string): SecurityDomainTag | undefined {
    return this.byName.get(name)
  }

  has(name: string): boolean {
    return this.byName.has(name)
  }

  /** Children in input order: the tags whose parent's name is this tag's name. */
  childrenOf(tag: SecurityDomainTag): readonly SecurityDomainTag[] {
    return this.childrenByName.get(tag.name) ?? []
  }
}
