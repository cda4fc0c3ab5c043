/**
 * The engine's scope validation (src/core/tags validateScope) for a designer
 * document: findings keyed by tag id, so each one can be shown beside the
 * tags involved. When the forest itself is refused by the reference (for
 * example two tags share a name), scopes cannot be judged and one finding
 * says so.
 */
import { buildDomain, SecurityDomainError, validateScope, type ScopeFinding, type SecurityDomain } from '../tags'
import { pairNames, toForest, type DesignDoc, type DesignTag, type ScopePair, type TagId } from './doc'

export interface DocScopeFinding extends Omit<ScopeFinding, 'tags' | 'code'> {
  code: ScopeFinding['code'] | 'forest_invalid'
  /** The tag the finding is about first, then others involved. */
  tagIds: TagId[]
}

/** The SecurityDomain of the document's forest, or the reference's refusal. */
export function domainOfTags(tags: readonly DesignTag[]): { domain: SecurityDomain } | { error: SecurityDomainError } {
  try {
    return { domain: buildDomain(toForest({ tags })) }
  } catch (e) {
    if (e instanceof SecurityDomainError) return { error: e }
    throw e
  }
}

// Per tags array (immutable; a scope click keeps it): names to ids once per tree, not once per click.
const nameIndexes = new WeakMap<readonly DesignTag[], ReadonlyMap<string, TagId>>()
function idsByName(tags: readonly DesignTag[]): ReadonlyMap<string, TagId> {
  let index = nameIndexes.get(tags)
  if (!index) nameIndexes.set(tags, (index = new Map(tags.map((t) => [t.name, t.id]))))
  return index
}

export function scopeFindings(doc: DesignDoc, pair: ScopePair = doc, domainResult = domainOfTags(doc.tags)): DocScopeFinding[] {
  if ('error' in domainResult) {
    return [
      {
        code: 'forest_invalid',
        severity: 'error',
        set: 'both',
        tagIds: [],
        message: `The forest is not a valid SecurityDomain yet (${domainResult.error.message}), so this scope cannot be checked.`,
      },
    ]
  }
  const names = pairNames(doc, pair)
  const idOf = idsByName(doc.tags)
  return validateScope(domainResult.domain, names.scope, names.readOnly).map((f) => ({
    code: f.code,
    severity: f.severity,
    message: f.message,
    set: f.set,
    tagIds: f.tags.flatMap((n) => (idOf.has(n) ? [idOf.get(n)!] : [])),
  }))
}
