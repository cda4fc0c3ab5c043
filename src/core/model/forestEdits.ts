/**
 * Every change to a designer document is one of these typed edits, applied by
 * a pure reducer (as xyflow's `applyNodeChanges`): the store records them for
 * undo, tests drive them with no DOM. An edit that would change nothing, or
 * that is not allowed (moving a tag under its own descendant), returns the
 * very same document object, so callers can tell "nothing happened" by `===`.
 */
import { assertNever } from '../engine/assertNever'
import { childrenIndex, flatten, subtreeIds, tagIndexOf, type Access, type DesignDoc, type DesignTag, type TagId } from './doc'

export type ForestEdit =
  /** Inserts a new tag among its parent's children at `index` (default: last). */
  | { type: 'addTag'; tag: DesignTag; index?: number }
  | { type: 'renameTag'; id: TagId; name: string }
  | { type: 'describeTag'; id: TagId; description: string }
  /** The tag's framework references (already checked by the caller); an empty list removes the field. */
  | { type: 'setReferences'; id: TagId; references: readonly string[] }
  /** Deletes each tag with its whole subtree, and drops them from scope and read_only. */
  | { type: 'deleteTags'; ids: readonly TagId[] }
  /**
   * Reparents and/or reorders: the tags (top-most of the selection, in forest
   * order) become consecutive children of `parent` (null: roots) at `index`,
   * counted among the new siblings without the moved tags.
   */
  | { type: 'moveTags'; ids: readonly TagId[]; parent: TagId | null; index: number }
  | { type: 'setAccess'; ids: readonly TagId[]; access: Access }
  | { type: 'setScope'; scope: readonly TagId[]; readOnly: readonly TagId[] }
  | { type: 'replaceDoc'; doc: DesignDoc }

export function applyEdit(doc: DesignDoc, edit: ForestEdit): DesignDoc {
  switch (edit.type) {
    case 'addTag':
      return addTag(doc, edit.tag, edit.index)
    case 'renameTag':
      return updateTag(doc, edit.id, (t) => (t.name === edit.name ? t : { ...t, name: edit.name }))
    case 'describeTag':
      return updateTag(doc, edit.id, (t) => (t.description === edit.description ? t : { ...t, description: edit.description }))
    case 'setReferences':
      return updateTag(doc, edit.id, (t) => {
        if ((t.references ?? []).join('\n') === edit.references.join('\n')) return t
        const rest: DesignTag = { id: t.id, name: t.name, parent: t.parent, description: t.description }
        return edit.references.length > 0 ? { ...rest, references: [...edit.references] } : rest
      })
    case 'deleteTags':
      return deleteTags(doc, edit.ids)
    case 'moveTags':
      return moveTags(doc, edit.ids, edit.parent, edit.index)
    case 'setAccess':
      return setAccess(doc, edit.ids, edit.access)
    case 'setScope':
      return setScope(doc, edit.scope, edit.readOnly)
    case 'replaceDoc':
      return edit.doc
    default:
      return assertNever(edit, 'forest edit')
  }
}

function addTag(doc: DesignDoc, tag: DesignTag, index?: number): DesignDoc {
  if (doc.tags.some((t) => t.id === tag.id)) return doc
  if (tag.parent !== null && !doc.tags.some((t) => t.id === tag.parent)) return doc
  const byId = new Map(doc.tags.map((t) => [t.id, t]))
  byId.set(tag.id, tag)
  const children = childrenIndex(doc.tags)
  const siblings = [...(children.get(tag.parent) ?? [])]
  siblings.splice(clamp(index ?? siblings.length, 0, siblings.length), 0, tag.id)
  children.set(tag.parent, siblings)
  return { ...doc, tags: flatten(byId, children) }
}

function updateTag(doc: DesignDoc, id: TagId, change: (t: DesignTag) => DesignTag): DesignDoc {
  const i = doc.tags.findIndex((t) => t.id === id)
  if (i < 0) return doc
  const next = change(doc.tags[i])
  if (next === doc.tags[i]) return doc
  const tags = [...doc.tags]
  tags[i] = next
  return { ...doc, tags }
}

function deleteTags(doc: DesignDoc, ids: readonly TagId[]): DesignDoc {
  const gone = subtreeIds(
    doc.tags,
    ids.filter((id) => doc.tags.some((t) => t.id === id)),
  )
  if (gone.size === 0) return doc
  return {
    tags: doc.tags.filter((t) => !gone.has(t.id)),
    scope: doc.scope.filter((id) => !gone.has(id)),
    readOnly: doc.readOnly.filter((id) => !gone.has(id)),
  }
}

/** The selected tags that have no selected ancestor, in forest order. */
export function topMost(doc: DesignDoc, ids: readonly TagId[]): TagId[] {
  const wanted = new Set(ids)
  const parents = new Map(doc.tags.map((t) => [t.id, t.parent]))
  return doc.tags
    .filter((t) => wanted.has(t.id))
    .filter((t) => {
      for (let p = parents.get(t.id) ?? null; p !== null; p = parents.get(p) ?? null) if (wanted.has(p)) return false
      return true
    })
    .map((t) => t.id)
}

/** Why the tags cannot move under `parent`, or null when they can. */
export function moveProblem(doc: DesignDoc, ids: readonly TagId[], parent: TagId | null): string | null {
  if (parent === null) return null
  const target = doc.tags.find((t) => t.id === parent)
  if (!target) return 'that tag no longer exists'
  const moving = subtreeIds(doc.tags, topMost(doc, ids))
  if (moving.has(parent)) {
    const self = ids.includes(parent)
    return self ? `${target.name} cannot become its own child` : `${target.name} is inside the subtree being moved`
  }
  return null
}

function moveTags(doc: DesignDoc, ids: readonly TagId[], parent: TagId | null, index: number): DesignDoc {
  const moved = topMost(doc, ids)
  if (moved.length === 0 || moveProblem(doc, moved, parent) !== null) return doc
  const movedSet = new Set(moved)
  const byId = new Map(doc.tags.map((t) => [t.id, t]))
  const children = childrenIndex(doc.tags)
  for (const [key, list] of children)
    children.set(
      key,
      list.filter((id) => !movedSet.has(id)),
    )
  const siblings = [...(children.get(parent) ?? [])]
  siblings.splice(clamp(index, 0, siblings.length), 0, ...moved)
  children.set(parent, siblings)
  for (const id of moved) {
    const t = byId.get(id)!
    if (t.parent !== parent) byId.set(id, { ...t, parent })
  }
  const tags = flatten(byId, children)
  const same = tags.length === doc.tags.length && tags.every((t, i) => t === doc.tags[i])
  return same ? doc : { ...doc, tags }
}

function setAccess(doc: DesignDoc, ids: readonly TagId[], access: Access): DesignDoc {
  const known = tagIndexOf(doc.tags).position
  const target = ids.filter((id) => known.has(id))
  const touched = new Set(target)
  const scope = doc.scope.filter((id) => !touched.has(id))
  const readOnly = doc.readOnly.filter((id) => !touched.has(id))
  if (access === 'scope') scope.push(...target)
  if (access === 'read_only') readOnly.push(...target)
  return setScope(doc, scope, readOnly)
}

function setScope(doc: DesignDoc, scope: readonly TagId[], readOnly: readonly TagId[]): DesignDoc {
  const known = tagIndexOf(doc.tags).position
  const clean = (ids: readonly TagId[]) => [...new Set(ids)].filter((id) => known.has(id))
  const s = clean(scope)
  const r = clean(readOnly).filter((id) => !s.includes(id))
  if (sameList(s, doc.scope) && sameList(r, doc.readOnly)) return doc
  return { ...doc, scope: s, readOnly: r }
}

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i])
}

function clamp(n: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, n))
}

/** A tag's parent and position among its siblings. */
export function placeOf(doc: DesignDoc, id: TagId): { parent: TagId | null; index: number; siblings: TagId[] } | null {
  const tag = doc.tags.find((t) => t.id === id)
  if (!tag) return null
  const siblings = childrenIndex(doc.tags).get(tag.parent) ?? []
  return { parent: tag.parent, index: siblings.indexOf(id), siblings }
}
