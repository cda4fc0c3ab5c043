/**
 * What a threat model covers, tag by tag: superred's `scope_includes` over
 * the write set and over visibility (write ∪ read_only). Read & write
 * overrules read-only, so a read-only tag inside a writable subtree stays
 * writable, and a writable tag inside a read-only subtree is writable while
 * the rest of that subtree is only visible.
 */
import { tagIndexOf, type DesignTag, type ScopePair, type TagId } from './doc'

export type Effective = 'write' | 'read' | 'none'

export interface Coverage {
  effective: Effective
  /** The granted tag the effective access comes from (the tag itself when granted directly). */
  via: TagId | null
}

const NONE: Coverage = Object.freeze({ effective: 'none', via: null })

/** One pre-order pass: each tag inherits its parent's coverage unless granted itself. */
export function coverage(tags: readonly DesignTag[], pair: ScopePair): Map<TagId, Coverage> {
  const out = new Map<TagId, Coverage>()
  const children = tagIndexOf(tags).children
  spread(
    children,
    pair,
    out,
    (children.get(null) ?? []).map((id) => ({ id, inherited: NONE })),
  )
  for (const t of tags) if (!out.has(t.id)) out.set(t.id, NONE)
  return out
}

/** Coverage flowing down from the stack's tags into `out`; a tag already in `out` is not visited again. */
function spread(
  children: ReadonlyMap<TagId | null, readonly TagId[]>,
  pair: ScopePair,
  out: Map<TagId, Coverage>,
  stack: Array<{ id: TagId; inherited: Coverage }>,
): void {
  const write = new Set(pair.scope)
  const read = new Set(pair.readOnly)
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
}

/**
 * `coverage(tags, pair)` computed from the coverage of the same tags under
 * another pair: only the subtrees of tags whose grant differs are walked
 * again (a click on a 5,000-tag forest revisits the clicked tag's subtree).
 * Falls back to the full pass when a changed tag is not reachable from a
 * root (a parent cycle in damaged data).
 */
export function updatedCoverage(
  tags: readonly DesignTag[],
  before: { pair: ScopePair; coverage: ReadonlyMap<TagId, Coverage> },
  pair: ScopePair,
): Map<TagId, Coverage> {
  const changed = new Set<TagId>()
  const diff = (a: readonly TagId[], b: readonly TagId[]) => {
    const sb = new Set(b)
    for (const id of a) if (!sb.has(id)) changed.add(id)
  }
  diff(before.pair.scope, pair.scope)
  diff(pair.scope, before.pair.scope)
  diff(before.pair.readOnly, pair.readOnly)
  diff(pair.readOnly, before.pair.readOnly)
  const { position, children } = tagIndexOf(tags)
  const out = new Map(before.coverage)
  const parentOf = (id: TagId): TagId | null => {
    const p = tags[position.get(id)!].parent
    return p !== null && position.has(p) ? p : null
  }
  const stack: Array<{ id: TagId; inherited: Coverage }> = []
  for (const id of changed) {
    if (!position.has(id)) continue
    // Topmost changed tags only: one under another is walked with it. A walk up that never ends at a root is a cycle.
    let under = false
    const seen = new Set<TagId>([id])
    for (let p = parentOf(id); p !== null; p = parentOf(p)) {
      if (seen.has(p)) return coverage(tags, pair)
      seen.add(p)
      if (changed.has(p)) under = true
    }
    if (under) continue
    const parent = parentOf(id)
    stack.push({ id, inherited: parent === null ? NONE : (out.get(parent) ?? NONE) })
  }
  for (const { id } of stack) for (const sub of subtree(children, id)) out.delete(sub)
  spread(children, pair, out, stack)
  return out
}

function subtree(children: ReadonlyMap<TagId | null, readonly TagId[]>, root: TagId): TagId[] {
  const out: TagId[] = []
  const stack = [root]
  while (stack.length > 0) {
    const id = stack.pop()!
    out.push(id)
    for (const c of children.get(id) ?? []) stack.push(c)
  }
  return out
}
