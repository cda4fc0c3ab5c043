import type { SecurityDomain } from './domain'
import type { SecurityDomainTag } from './tag'

export type Severity = 'error' | 'warning' | 'info'

export type FindingCode =
  'unknown_tag' | 'empty_scope' | 'scope_not_antichain' | 'read_only_not_antichain' | 'read_only_covered_by_scope' | 'scope_under_read_only'

export interface ScopeFinding {
  code: FindingCode
  severity: Severity
  message: string
  /** The tags involved, by name; the first is the one the finding is about. */
  tags: string[]
  /** Which set the finding is about. */
  set: 'scope' | 'read_only' | 'both'
}

const SEVERITY: Record<FindingCode, Severity> = {
  unknown_tag: 'error',
  empty_scope: 'error',
  scope_not_antichain: 'error',
  read_only_not_antichain: 'error',
  read_only_covered_by_scope: 'warning',
  scope_under_read_only: 'info',
}

/** Nearest strict ancestor of `tag` among `granted`, if any. */
function grantedAncestor(tag: SecurityDomainTag, granted: ReadonlySet<SecurityDomainTag>): SecurityDomainTag | null {
  for (let node = tag.parent; node !== null; node = node.parent) if (granted.has(node)) return node
  return null
}

function dedupe(names: readonly string[]): string[] {
  return [...new Set(names)]
}

const LABEL = { scope: 'read & write', read_only: 'read-only' } as const

/**
 * Explains what is wrong or noteworthy about an attacker scope over a forest.
 * superred validates none of this (beyond both sets being empty) and runs
 * whatever it is given; the designer and the CLI use these findings to warn
 * before a run means something other than what the user thought.
 */
export function validateScope(domain: SecurityDomain, scope: readonly string[], readOnly: readonly string[]): ScopeFinding[] {
  const findings: ScopeFinding[] = []
  const add = (code: FindingCode, set: ScopeFinding['set'], tags: string[], message: string) =>
    findings.push({ code, severity: SEVERITY[code], message, tags, set })

  const resolve = (names: readonly string[], set: 'scope' | 'read_only'): Set<SecurityDomainTag> => {
    const tags = new Set<SecurityDomainTag>()
    for (const name of dedupe(names)) {
      const tag = domain.get(name)
      if (tag) tags.add(tag)
      else
        add(
          'unknown_tag',
          set,
          [name],
          `"${name}" (in ${set === 'scope' ? 'scope' : 'read_only'}) is not a tag of this forest, so it grants nothing.`,
        )
    }
    return tags
  }
  const write = resolve(scope, 'scope')
  const read = resolve(readOnly, 'read_only')

  if (scope.length === 0 && readOnly.length === 0) {
    add('empty_scope', 'both', [], 'scope and read_only cannot both be empty: grant at least one tag, read & write or read-only.')
  }

  for (const [set, tags] of [
    ['scope', write],
    ['read_only', read],
  ] as const) {
    for (const tag of tags) {
      const ancestor = grantedAncestor(tag, tags)
      if (ancestor) {
        add(
          set === 'scope' ? 'scope_not_antichain' : 'read_only_not_antichain',
          set,
          [tag.name, ancestor.name],
          `${tag.name} and its ancestor ${ancestor.name} are both granted ${LABEL[set]}: ${ancestor.name} already covers ${tag.name}. Keep only one of them.`,
        )
      }
    }
  }

  for (const tag of read) {
    const cover = write.has(tag) ? tag : grantedAncestor(tag, write)
    if (cover === tag) {
      add(
        'read_only_covered_by_scope',
        'both',
        [tag.name],
        `${tag.name} is granted both read & write and read-only: read & write overrules read-only, so the read-only grant has no effect.`,
      )
    } else if (cover) {
      add(
        'read_only_covered_by_scope',
        'both',
        [tag.name, cover.name],
        `${tag.name} is read-only, but ${cover.name} already grants read & write over it: read & write overrules read-only, so this has no effect.`,
      )
    }
  }

  for (const tag of write) {
    const ancestor = grantedAncestor(tag, read)
    if (ancestor) {
      add(
        'scope_under_read_only',
        'both',
        [tag.name, ancestor.name],
        `${tag.name} is writable inside the read-only ${ancestor.name}: the attacker sees all of ${ancestor.name} and can change only ${tag.name}.`,
      )
    }
  }
  return findings
}

export function hasErrors(findings: readonly ScopeFinding[]): boolean {
  return findings.some((f) => f.severity === 'error')
}
