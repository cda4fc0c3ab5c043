/**
 * The designer's document: a forest of tags with stable ids, plus the attacker
 * scope (read & write) and read_only, by id. Ids let a name be edited freely
 * (even into a duplicate, which validation then reports beside both tags)
 * while scopes, saved threat models and the canvas keep pointing at the same
 * tag. Names are what superred sees: `toForest` turns a document into the
 * plain FOREST.json shape that the engine builds a SecurityDomain from.
 *
 * `tags` is always in canonical pre-order (a parent before its children,
 * siblings in their meaningful order). superred's semantics depend only on
 * the order of roots and of each tag's children, which pre-order keeps, and a
 * parent defined before its children is what a Python module needs.
 */
import { buildDomain, type Forest } from '../tags'

declare const tagIdBrand: unique symbol
/** A tag's stable identity inside one document. Not its name. */
export type TagId = string & { readonly [tagIdBrand]: 'TagId' }

export function tagIdOf(value: string): TagId {
  return value as TagId
}

export interface DesignTag {
  readonly id: TagId
  readonly name: string
  readonly parent: TagId | null
  readonly description: string
  /** Framework references (`LLM01`, `AML.T0051`, ...), checked against src/core/compliance/frameworks.ts; absent when none. */
  readonly references?: readonly string[]
}

/** How one tag is granted: not at all, read & write (`scope`), or `read_only`. */
export type Access = 'none' | 'scope' | 'read_only'
export const ACCESS_CYCLE: readonly Access[] = ['none', 'scope', 'read_only']

export interface DesignDoc {
  readonly tags: readonly DesignTag[]
  readonly scope: readonly TagId[]
  readonly readOnly: readonly TagId[]
}

/** A threat model over a document: which tags are granted how. */
export interface ScopePair {
  readonly scope: readonly TagId[]
  readonly readOnly: readonly TagId[]
}

export const EMPTY_DOC: DesignDoc = Object.freeze({ tags: [], scope: [], readOnly: [] })

/** The next state of a click: none → read & write → read only → none. */
export function nextAccess(access: Access): Access {
  return ACCESS_CYCLE[(ACCESS_CYCLE.indexOf(access) + 1) % ACCESS_CYCLE.length]
}

export function accessIn(pair: ScopePair, id: TagId): Access {
  if (pair.scope.includes(id)) return 'scope'
  if (pair.readOnly.includes(id)) return 'read_only'
  return 'none'
}

/** The plain forest (names, in order), as superred and FOREST.json see it. */
export function toForest(doc: Pick<DesignDoc, 'tags'>): Forest {
  const names = new Map(doc.tags.map((t) => [t.id, t.name]))
  return {
    tags: doc.tags.map((t) => ({
      name: t.name,
      parent: t.parent === null ? null : (names.get(t.parent) ?? null),
      description: t.description,
      ...(t.references && t.references.length > 0 ? { references: [...t.references] } : {}),
    })),
  }
}

/**
 * The one order in which a combination lists its tags, everywhere it is shown:
 * forest order (the order of the forest's tags, pre-order, as superred walks
 * them). Names the forest does not know keep their given order, after the rest.
 */
export function inForestOrder(names: readonly string[], forest: { tags: ReadonlyArray<{ name: string }> } | null | undefined): string[] {
  if (!forest) return [...names]
  const rank = new Map(forest.tags.map((t, i) => [t.name, i]))
  const at = (n: string) => rank.get(n) ?? Number.MAX_SAFE_INTEGER
  return names
    .map((n, i) => ({ n, i }))
    .sort((a, b) => at(a.n) - at(b.n) || a.i - b.i)
    .map((x) => x.n)
}

/** Names of the granted tags of a pair, in forest order (unknown ids dropped). */
export function pairNames(doc: Pick<DesignDoc, 'tags'>, pair: ScopePair): { scope: string[]; readOnly: string[] } {
  // Forest order (what inForestOrder gives for these names), by position rather than by a pass over every
  // tag: a scope click on 5,000 tags touches only what is granted.
  const { position } = tagIndexOf(doc.tags)
  const inOrder = (ids: readonly TagId[]) =>
    [...new Set(ids)]
      .filter((id) => position.has(id))
      .sort((a, b) => position.get(a)! - position.get(b)!)
      .map((id) => doc.tags[position.get(id)!].name)
  return { scope: inOrder(pair.scope), readOnly: inOrder(pair.readOnly) }
}

/** Lookups over one tags array, built once and shared by every reader of that array. */
export interface TagIndex {
  /** Each tag's index in the array. */
  position: ReadonlyMap<TagId, number>
  /** childrenIndex's answer, read-only. */
  children: ReadonlyMap<TagId | null, readonly TagId[]>
}

// Tag arrays are immutable and an edit of the scope keeps them (only tree edits copy): keyed by identity, the
// lookups that coverage, findings and the attacker's reading need are built once per tree, not once per click.
const indexes = new WeakMap<readonly DesignTag[], TagIndex>()

export function tagIndexOf(tags: readonly DesignTag[]): TagIndex {
  let index = indexes.get(tags)
  if (!index) {
    const position = new Map<TagId, number>()
    for (let i = 0; i < tags.length; i++) if (!position.has(tags[i].id)) position.set(tags[i].id, i)
    index = { position, children: childrenIndex(tags) }
    indexes.set(tags, index)
  }
  return index
}

/**
 * A document from a plain forest, with fresh ids (`newId` is told the tag's
 * name, so a replacement can keep the ids of names it already had). Throws
 * the engine's SecurityDomainError (duplicate name, missing parent, cycle)
 * exactly as superred would refuse the forest. Scope names that are not tags
 * are dropped.
 */
export function docFromForest(
  forest: Forest,
  newId: (name: string) => TagId,
  granted: { scope?: readonly string[]; readOnly?: readonly string[] } = {},
): DesignDoc {
  buildDomain(forest)
  const ids = new Map(forest.tags.map((t) => [t.name, newId(t.name)]))
  const tags = forest.tags.map((t): DesignTag => ({
    id: ids.get(t.name)!,
    name: t.name,
    parent: t.parent === null ? null : ids.get(t.parent)!,
    description: t.description,
    ...(t.references && t.references.length > 0 ? { references: [...t.references] } : {}),
  }))
  const pick = (names: readonly string[] = []) => [...new Set(names)].flatMap((n) => (ids.has(n) ? [ids.get(n)!] : []))
  return { tags: canonicalOrder(tags), scope: pick(granted.scope), readOnly: pick(granted.readOnly) }
}

/** Children lists keyed by parent id (null = the roots), in array order. */
export function childrenIndex(tags: readonly DesignTag[]): Map<TagId | null, TagId[]> {
  const ids = new Set(tags.map((t) => t.id))
  const children = new Map<TagId | null, TagId[]>([[null, []]])
  for (const t of tags) {
    // A tag whose parent is gone is shown (and kept) as a root rather than lost.
    const key = t.parent !== null && ids.has(t.parent) ? t.parent : null
    const list = children.get(key)
    if (list) list.push(t.id)
    else children.set(key, [t.id])
  }
  return children
}

/** Pre-order from a children index. Iterative: a 10,000-deep chain must not overflow. */
export function flatten(byId: ReadonlyMap<TagId, DesignTag>, children: ReadonlyMap<TagId | null, readonly TagId[]>): DesignTag[] {
  const out: DesignTag[] = []
  const seen = new Set<TagId>()
  const stack = [...(children.get(null) ?? [])].reverse()
  while (stack.length > 0) {
    const id = stack.pop()!
    if (seen.has(id)) continue
    seen.add(id)
    const tag = byId.get(id)
    if (!tag) continue
    out.push(tag)
    const kids = children.get(id) ?? []
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i])
  }
  // Anything unreachable (a parent cycle in corrupt data) is kept, at the end.
  for (const tag of byId.values()) if (!seen.has(tag.id)) out.push(tag)
  return out
}

export function canonicalOrder(tags: readonly DesignTag[]): DesignTag[] {
  return flatten(new Map(tags.map((t) => [t.id, t])), childrenIndex(tags))
}

/** The tag and all its descendants, as ids. */
export function subtreeIds(tags: readonly DesignTag[], roots: Iterable<TagId>): Set<TagId> {
  const children = childrenIndex(tags)
  const out = new Set<TagId>()
  const stack = [...roots]
  while (stack.length > 0) {
    const id = stack.pop()!
    if (out.has(id)) continue
    out.add(id)
    stack.push(...(children.get(id) ?? []))
  }
  return out
}
