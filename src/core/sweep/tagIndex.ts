/**
 * A forest's tags as bit positions, so that what a threat model covers is a
 * bitset and a sweep of thousands of models is painted and compared pairwise
 * in milliseconds.
 */
import type { Forest } from '../tags'

export class TagIndex {
  readonly names: readonly string[]
  readonly words: number
  private readonly index: ReadonlyMap<string, number>
  private readonly subtree: ReadonlyMap<string, readonly number[]>

  constructor(forest: Forest) {
    this.names = forest.tags.map((t) => t.name)
    this.words = Math.max(1, Math.ceil(this.names.length / 32))
    this.index = new Map(this.names.map((n, i) => [n, i]))
    const children = new Map<string, string[]>()
    for (const t of forest.tags) if (t.parent !== null) children.set(t.parent, [...(children.get(t.parent) ?? []), t.name])
    const subtree = new Map<string, number[]>()
    for (const name of this.names) {
      const out: number[] = []
      const stack = [name]
      const seen = new Set<string>()
      while (stack.length) {
        const n = stack.pop()!
        if (seen.has(n)) continue
        seen.add(n)
        const i = this.index.get(n)
        if (i !== undefined) out.push(i)
        stack.push(...(children.get(n) ?? []))
      }
      subtree.set(name, out)
    }
    this.subtree = subtree
  }

  /** The tags covered by a set of granted names (each with its subtree); unknown names cover nothing. */
  cover(granted: readonly string[]): Uint32Array {
    const bits = new Uint32Array(this.words)
    for (const g of granted) for (const i of this.subtree.get(g) ?? []) bits[i >>> 5] |= 1 << (i & 31)
    return bits
  }

  /** Whether the tag at position `i` (forest order) is in `bits`. */
  hasAt(bits: Uint32Array, i: number): boolean {
    return (bits[i >>> 5] & (1 << (i & 31))) !== 0
  }

  has(bits: Uint32Array, name: string): boolean {
    const i = this.index.get(name)
    return i !== undefined && (bits[i >>> 5] & (1 << (i & 31))) !== 0
  }
}

export function union(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(a.length)
  for (let i = 0; i < a.length; i++) out[i] = a[i] | b[i]
  return out
}
