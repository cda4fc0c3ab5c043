import { subtreeCounts } from './count'
import type { SecurityDomain } from './domain'
import { compareNames, type SecurityDomainTag } from './tag'

/**
 * The forest flattened once for enumeration: tags in pre-order (roots in
 * input order, children in input order), each node's children as a slice of
 * one flat array, with a virtual super-root whose children are the roots.
 */
class FlatForest {
  /** Pre-order position → the tag. */
  readonly tags: readonly SecurityDomainTag[]
  /** Slot s of `kids` holds a pre-order position; node v's children are slots kidStart[v] .. kidStart[v+1]-1. */
  readonly kids: Int32Array
  readonly kidStart: Int32Array
  /** The super-root's children (the roots) are slots 0 .. rootCount-1. */
  readonly rootCount: number
  /** Per pre-order position: the subtree's size (it spans positions v .. v+size-1), the parent and the previous sibling (-1: none). */
  readonly size: Int32Array
  readonly parent: Int32Array
  readonly prev: Int32Array

  constructor(domain: SecurityDomain) {
    const order: SecurityDomainTag[] = []
    // Iterative pre-order: a 10,000-deep chain must not overflow the call stack.
    const stack = [...domain.roots].reverse()
    while (stack.length > 0) {
      const tag = stack.pop()!
      order.push(tag)
      const kids = domain.childrenOf(tag)
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i])
    }
    const position = new Map<SecurityDomainTag, number>()
    order.forEach((tag, i) => position.set(tag, i))
    this.tags = order
    this.rootCount = domain.roots.length
    this.kidStart = new Int32Array(order.length + 1)
    this.kids = new Int32Array(this.rootCount + order.length)
    let slot = 0
    for (const root of domain.roots) this.kids[slot++] = position.get(root)!
    for (let v = 0; v < order.length; v++) {
      this.kidStart[v] = slot
      for (const kid of domain.childrenOf(order[v])) this.kids[slot++] = position.get(kid)!
    }
    this.kidStart[order.length] = slot
    const n = order.length
    this.size = new Int32Array(n).fill(1)
    this.parent = new Int32Array(n).fill(-1)
    this.prev = new Int32Array(n).fill(-1)
    const link = (from: number, to: number, owner: number) => {
      for (let s = from; s < to; s++) {
        this.parent[this.kids[s]] = owner
        if (s > from) this.prev[this.kids[s]] = this.kids[s - 1]
      }
    }
    link(0, this.rootCount, -1)
    for (let v = 0; v < n; v++) link(this.kidStart[v], this.kidStart[v + 1], v)
    // Children come after their parent in pre-order: summing from the end sees every child first.
    for (let v = n - 1; v >= 0; v--) if (this.parent[v] >= 0) this.size[this.parent[v]] += this.size[v]
  }
}

const flatCache = new WeakMap<SecurityDomain, FlatForest>()

function flatten(domain: SecurityDomain): FlatForest {
  let flat = flatCache.get(domain)
  if (!flat) {
    flat = new FlatForest(domain)
    flatCache.set(domain, flat)
  }
  return flat
}

/**
 * Walks the distinct combinations of a forest in superred's exact order
 * (`distinctCombinations`) without building them: the current combination
 * lives in a few typed arrays that each step changes in place, and tags are
 * materialised only when asked for (`tags()`, `names()`).
 *
 * The order is a mixed-radix count: across roots, and within a node across
 * its children, the last varies fastest; a node's own singleton comes after
 * every combination of its children. In pre-order terms a step is: while the
 * last selected tag closes the span being counted (its subtree ends where the
 * span ends, so the count reached it through last children), it wraps; then
 * its previous sibling's subtree becomes the span, or, with no previous
 * sibling, its parent is selected. Otherwise the span's last tag (a leaf) is
 * selected. The selected tags thus form a stack in pre-order, each step pops
 * a few and pushes one, and a step costs O(1) amortised, whatever the
 * forest's shape (a 10,000-deep chain included).
 *
 *     const cursor = new CombinationCursor(domain)
 *     while (cursor.next()) use(cursor.names())
 */
export class CombinationCursor {
  readonly domain: SecurityDomain
  private readonly flat: FlatForest
  /** The current combination's pre-order positions, ascending (a stack). */
  private readonly stack: Int32Array
  private count = 0
  private state: 'before' | 'at' | 'end' = 'before'

  constructor(domain: SecurityDomain) {
    this.domain = domain
    this.flat = flatten(domain)
    this.stack = new Int32Array(this.flat.tags.length)
  }

  /**
   * Positions the cursor so that the next `next()` lands on the combination
   * at `index` (0 = the empty set), decoded as `combinationAt` does: a shard
   * of a sweep starts here and steps on, instead of decoding every index.
   */
  seek(index: bigint, counts: Map<SecurityDomainTag, bigint> = subtreeCounts(this.domain)): this {
    const { kids, kidStart, rootCount, tags } = this.flat
    let total = 1n
    for (let s = 0; s < rootCount; s++) total *= counts.get(tags[kids[s]])!
    if (index < 0n || index >= total) throw new RangeError(`combination index ${index} is outside 0..${total - 1n}`)
    const on = new Uint8Array(tags.length)
    // Each list's index is a mixed-radix number whose last digit is fastest;
    // a digit equal to the product of a node's children's counts is the node itself.
    const work: Array<{ start: number; end: number; index: bigint }> = [{ start: 0, end: rootCount, index }]
    while (work.length > 0) {
      const { start, end, index: listIndex } = work.pop()!
      let rest = listIndex
      for (let s = end - 1; s >= start; s--) {
        const v = kids[s]
        const radix = counts.get(tags[v])!
        const digit = rest % radix
        rest /= radix
        if (digit === 0n) continue
        if (digit === radix - 1n) on[v] = 1
        else work.push({ start: kidStart[v], end: kidStart[v + 1], index: digit })
      }
    }
    this.count = 0
    for (let v = 0; v < tags.length; v++) if (on[v] === 1) this.stack[this.count++] = v
    this.state = 'before'
    return this
  }

  /** Moves to the next combination (the first call: the empty set, or where `seek` put it). False once all were visited. */
  next(): boolean {
    if (this.state === 'before') {
      this.state = 'at'
      return true
    }
    if (this.state === 'end') return false
    const { size, parent, prev } = this.flat
    const stack = this.stack
    // The span being counted: pre-order positions up to `end` (exclusive); first the whole forest.
    let end = size.length
    for (;;) {
      const top = this.count > 0 ? stack[this.count - 1] : -1
      if (top < 0 || top + size[top] !== end) {
        if (end === 0) break
        stack[this.count++] = end - 1
        return true
      }
      this.count -= 1
      const sibling = prev[top]
      if (sibling < 0) {
        const owner = parent[top]
        if (owner < 0) break
        stack[this.count++] = owner
        return true
      }
      end = top
    }
    this.state = 'end'
    return false
  }

  /** How many tags the current combination has. */
  get size(): number {
    return this.count
  }

  /** The forest's tags in pre-order: what `positionAt` indexes. */
  get preorder(): readonly SecurityDomainTag[] {
    return this.flat.tags
  }

  /** The pre-order position of the i-th tag of the current combination (ascending in i): no tag object needed. */
  positionAt(i: number): number {
    return this.stack[i]
  }

  /** The i-th tag of the current combination, in forest pre-order (as `distinctCombinations` lists them). */
  tagAt(i: number): SecurityDomainTag {
    return this.flat.tags[this.stack[i]]
  }

  /** The current combination's tag names, sorted as Python sorts str (how superred and the CLI print them). */
  names(): string[] {
    return this.tags()
      .map((t) => t.name)
      .sort(compareNames)
  }

  /** The current combination's tags, in forest pre-order. A new array each call. */
  tags(): SecurityDomainTag[] {
    const out = new Array<SecurityDomainTag>(this.count)
    for (let i = 0; i < this.count; i++) out[i] = this.flat.tags[this.stack[i]]
    return out
  }
}
