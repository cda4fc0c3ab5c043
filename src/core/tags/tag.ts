/**
 * A capability tag in a security-domain forest, with superred's semantics:
 * equality is by value (name and parent chain) but `includes` is by identity,
 * so a look-alike copy of a tag neither includes nor is included by it.
 */
export class SecurityDomainTag {
  readonly name: string
  readonly parent: SecurityDomainTag | null

  constructor(name: string, parent: SecurityDomainTag | null = null) {
    this.name = name
    this.parent = parent
    // Frozen like the reference's frozen dataclass: a parent link can never be
    // rewired, which is also why no cycle can be built.
    Object.freeze(this)
  }

  /** True iff this very object is `other` or one of its ancestors. */
  includes(other: SecurityDomainTag): boolean {
    for (let node: SecurityDomainTag | null = other; node !== null; node = node.parent) {
      if (node === this) return true
    }
    return false
  }

  /** Value equality, as Python's dataclass `==`: same name and equal parents. */
  equals(other: SecurityDomainTag): boolean {
    return this.valueKey() === other.valueKey()
  }

  /** A string that two tags share iff they are equal by value (Python's hash). */
  valueKey(): string {
    const path: string[] = [this.name]
    for (let node = this.parent; node !== null; node = node.parent) path.push(node.name)
    return JSON.stringify(path)
  }

  toString(): string {
    return this.name
  }
}

/** An attacker scope: a set of tags. Membership by value, as a Python frozenset. */
export type Scope = ReadonlySet<SecurityDomainTag>

/** Builds a Scope that, like a Python frozenset, keeps one of each look-alike (the first). */
export function scopeOf(tags: Iterable<SecurityDomainTag>): Scope {
  const byKey = new Map<string, SecurityDomainTag>()
  for (const tag of tags) if (!byKey.has(tag.valueKey())) byKey.set(tag.valueKey(), tag)
  return new Set(byKey.values())
}

/** True iff some member of the scope includes the tag (identity walk). Empty covers nothing. */
export function scopeIncludes(scope: Iterable<SecurityDomainTag>, tag: SecurityDomainTag): boolean {
  for (const member of scope) if (member.includes(tag)) return true
  return false
}

/** The names of a scope's tags, sorted: how superred persists and hashes scopes. */
export function scopeNames(scope: Iterable<SecurityDomainTag>): string[] {
  return [...scope].map((t) => t.name).sort(compareNames)
}

/** Code-point order, as Python's `sorted` on str (not locale order). */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
