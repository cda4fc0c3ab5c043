/**
 * A threat model read as an attacker, in plain words built from the tags'
 * descriptions (the guide: "the persona is an emergent reading of a scope").
 * `scope={user}` over the chatbot forest reads "Can send the user message and
 * see the reply. Blind to system."
 */
import { tagIndexOf, type DesignTag, type ScopePair, type TagId } from './doc'
import { coverage, type Coverage } from './coverage'

export interface ReadingItem {
  id: TagId
  name: string
  /** The tag's description, or a fallback built from its name. */
  text: string
  /** How many tags below it come along with it. */
  covers: number
}

export interface AttackerReading {
  summary: string
  writes: ReadingItem[]
  reads: ReadingItem[]
  /** The largest subtrees the attacker neither sees nor touches. */
  blind: ReadingItem[]
}

/** "a, b and c"; with `sep = '; '` (items that contain "and" themselves) "a; b; and c". */
export function joinWords(parts: readonly string[], sep = ', '): string {
  if (parts.length <= 1) return parts.join('')
  const last = sep === ', ' ? ' and ' : `${sep}and `
  return `${parts.slice(0, -1).join(sep)}${last}${parts[parts.length - 1]}`
}

// How many tags hang below each tag, once per tags array (immutable; a scope click keeps it): the blind
// subtrees of a 5,000-tag forest are most of it, and counting them at every click was a pass over all of it.
const sizes = new WeakMap<readonly DesignTag[], ReadonlyMap<TagId, number>>()
function subtreeSizes(tags: readonly DesignTag[]): ReadonlyMap<TagId, number> {
  let out = sizes.get(tags)
  if (out) return out
  const children = tagIndexOf(tags).children
  const counted = new Map<TagId, number>()
  // Post-order without recursion (a 10,000-deep chain must not overflow): a tag is counted once its children are.
  const stack: Array<{ id: TagId; open: boolean }> = (children.get(null) ?? []).map((id) => ({ id, open: false }))
  while (stack.length > 0) {
    const top = stack.pop()!
    const kids = children.get(top.id) ?? []
    if (!top.open) {
      if (counted.has(top.id)) continue
      stack.push({ id: top.id, open: true })
      for (const c of kids) if (!counted.has(c)) stack.push({ id: c, open: false })
      continue
    }
    let n = 0
    for (const c of kids) n += 1 + (counted.get(c) ?? 0)
    counted.set(top.id, n)
  }
  out = counted
  sizes.set(tags, out)
  return out
}

export function attackerReading(
  tags: readonly DesignTag[],
  pair: ScopePair,
  cov: ReadonlyMap<TagId, Coverage> = coverage(tags, pair),
): AttackerReading {
  const children = tagIndexOf(tags).children
  const size = (id: TagId): number => subtreeSizes(tags).get(id) ?? 0
  const item = (t: DesignTag, fallback: string): ReadingItem => ({
    id: t.id,
    name: t.name,
    text: t.description.trim() || fallback,
    covers: size(t.id),
  })
  const granted = (ids: readonly TagId[], kind: 'write' | 'read') => {
    const set = new Set(ids)
    return (
      tags
        .filter((t) => set.has(t.id))
        // A grant that a broader grant already covers adds nothing to the reading.
        .filter((t) => cov.get(t.id)!.via === t.id && cov.get(t.id)!.effective === kind)
    )
  }
  const writes = granted(pair.scope, 'write').map((t) => item(t, `write to ${t.name}`))
  const reads = granted(pair.readOnly, 'read').map((t) => item(t, `${t.name}`))
  // Blind: the largest subtrees of which nothing at all is visible.
  const dark = new Set<TagId>()
  for (let i = tags.length - 1; i >= 0; i--) {
    const t = tags[i]
    if (cov.get(t.id)!.effective === 'none' && (children.get(t.id) ?? []).every((c) => dark.has(c))) dark.add(t.id)
  }
  const blind = tags.filter((t) => dark.has(t.id) && (t.parent === null || !dark.has(t.parent))).map((t) => item(t, t.name))

  const sentences: string[] = []
  if (writes.length === 0 && reads.length === 0) {
    sentences.push('No attacker yet: nothing is granted, and superred refuses a threat model with empty scope and read_only.')
  } else {
    if (writes.length > 0)
      sentences.push(
        `Can: ${joinWords(
          writes.map((w) => w.text),
          '; ',
        )}.`,
      )
    else sentences.push('Cannot inject anywhere: every granted surface is read-only.')
    if (reads.length > 0) sentences.push(`Sees, without being able to change: ${joinWords(reads.map((r) => r.name))}.`)
    if (blind.length === 0) sentences.push('Nothing is hidden from it.')
    else sentences.push(`Blind to ${joinWords(blind.map((b) => b.name))}.`)
  }
  return { summary: sentences.join(' '), writes, reads, blind }
}
