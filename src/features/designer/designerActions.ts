/**
 * The designer's commands, shared by the toolbar, the inspector, the canvas
 * and the keyboard shortcuts. Each one reads the store, builds a typed edit and
 * dispatches it; none holds state of its own.
 */
import { nextAccess, placeOf, accessIn, type DesignDoc, type TagId } from '../../core/model'
import { designerStore } from '../../stores/designerStore'
import { newTagId } from '../../stores/ids'
import { selectDoc } from '../../stores/selectors'

const state = () => designerStore.getState()
const doc = (): DesignDoc => selectDoc(state())
/** Selected ids that still exist, in selection order. */
export function liveSelection(): TagId[] {
  const ids = new Set(doc().tags.map((t) => t.id))
  return state().selected.filter((id) => ids.has(id))
}

/** `base`, or `base_2`, `base_3`... whichever is free. */
export function uniqueName(names: Iterable<string>, base = 'new_tag'): string {
  const taken = new Set(names)
  if (!taken.has(base)) return base
  for (let i = 2; ; i++) if (!taken.has(`${base}_${i}`)) return `${base}_${i}`
}

/** Adds a tag under `parent` (null: a new root) at `index`, selects it and opens its name for editing. */
export function addTag(parent: TagId | null, index?: number): TagId {
  const id = newTagId()
  const name = uniqueName(doc().tags.map((t) => t.name))
  state().dispatch({ type: 'addTag', tag: { id, name, parent, description: '' }, index })
  state().select([id])
  state().setEditing(id)
  return id
}

export const addRoot = () => addTag(null)

export function addChild(): TagId | null {
  const [sel] = liveSelection()
  return sel === undefined ? null : addTag(sel)
}

/** A new sibling right after the selected tag (a root after a root). */
export function addSibling(): TagId | null {
  const [sel] = liveSelection()
  if (sel === undefined) return null
  const place = placeOf(doc(), sel)!
  return addTag(place.parent, place.index + 1)
}

/** How many tags a delete of these would remove (subtrees included). */
export function deleteCount(ids: readonly TagId[]): number {
  const children = new Map<TagId, TagId[]>()
  for (const t of doc().tags) if (t.parent) children.set(t.parent, [...(children.get(t.parent) ?? []), t.id])
  const seen = new Set<TagId>()
  const stack = [...ids]
  while (stack.length) {
    const id = stack.pop()!
    if (seen.has(id)) continue
    seen.add(id)
    stack.push(...(children.get(id) ?? []))
  }
  return seen.size
}

export function deleteTags(ids: readonly TagId[] = liveSelection()): boolean {
  if (ids.length === 0) return false
  // Select the parent of the first deleted tag, so that keyboard work can go on.
  const parent = placeOf(doc(), ids[0])?.parent ?? null
  const changed = state().dispatch({ type: 'deleteTags', ids })
  state().select(parent === null ? [] : [parent])
  return changed
}

export function renameTag(id: TagId, name: string): boolean {
  return state().dispatch({ type: 'renameTag', id, name })
}

export function describeTag(id: TagId, description: string): boolean {
  return state().dispatch({ type: 'describeTag', id, description })
}

/** Sets a tag's framework references (checked ids; an empty list clears them). */
export function setTagReferences(id: TagId, references: readonly string[]): boolean {
  return state().dispatch({ type: 'setReferences', id, references })
}

/** Moves a tag left (-1) or right (+1) among its siblings. */
export function moveAmongSiblings(id: TagId, delta: number): boolean {
  const place = placeOf(doc(), id)
  if (!place) return false
  const index = place.index + delta
  if (index < 0 || index >= place.siblings.length) return false
  return state().dispatch({ type: 'moveTags', ids: [id], parent: place.parent, index })
}

export function reparent(ids: readonly TagId[], parent: TagId | null, index = Number.MAX_SAFE_INTEGER): boolean {
  return state().dispatch({ type: 'moveTags', ids, parent, index })
}

/** One click: none → read & write → read only → none. Several tags follow the first. */
export function cycleAccess(ids: readonly TagId[]): boolean {
  if (ids.length === 0) return false
  return state().dispatch({ type: 'setAccess', ids, access: nextAccess(accessIn(doc(), ids[0])) })
}

/** Arrow-key navigation: up to the parent, down to the first child, left/right among siblings. */
export function neighbour(id: TagId, dir: 'up' | 'down' | 'left' | 'right'): TagId | null {
  const d = doc()
  const place = placeOf(d, id)
  if (!place) return null
  if (dir === 'up') return place.parent
  if (dir === 'down') return d.tags.find((t) => t.parent === id)?.id ?? null
  const i = place.index + (dir === 'left' ? -1 : 1)
  return place.siblings[i] ?? null
}
