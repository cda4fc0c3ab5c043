/**
 * What a threat model covers, tag by tag: superred's `scope_includes` over
 * the write set and over visibility (write ∪ read_only). Read & write
 * overrules read-only, so a read-only tag inside a writable subtree stays
 * writable, and a writable tag inside a read-only subtree is writable while
 * the rest of that subtree is only visible.
 */
import { childrenIndex, type DesignTag, type ScopePair, type TagId } from './doc'

export type Effective = 'write' | 'read' | 'none'

export interface Coverage {
  effective: Effective
  /** The granted tag the effective access comes from (the tag itself when granted directly). */
  via: TagId | null
}

const NONE: Coverage = Object.freeze({ effective: 'none', via: null })

/** One pre-order pass: each tag inherits its parent's coverage unless granted itself. */
export function coverage(tags: readonly DesignTag[], pair: ScopePair): Map<TagId, Coverage> {
  const write = new Set(pair.scope)
  const read = new Set(pair.readOnly)
  const children = childrenIndex(tags)
  const out = new Map<TagId, Coverage>()
  const stack: Array<{ id: TagId; inherited: Coverage }> = (children.get(null) ?? []).map((id) => ({ id, inherited: NONE }))
  while (stack.length > 0) {
    const { id, inherited } = stack.pop()!
    if (out.has(id)) continue
    let c: Coverage
    if (write.has(id)) c = { effective: 'write', via: id }
    else if (inherited.effective === 'write') c = inherited
    else if (read.has(id)) c = { effective: 'read', via: id }
    else c = inherited
    out.set(id, c)
    for (const child of children.get(id) ?? []) stack.push({ id: child, inherited: c })
  }
  for (const t of tags) if (!out.has(t.id)) out.set(t.id, NONE)
  return out
}
