/**
 * The capability order on threat models, as superred's semantics give it.
 *
 * Granting a tag grants its whole subtree (`scope_includes` walks parents),
 * so what a scope lets an attacker touch is its cover: the union of its tags'
 * subtrees. One threat model is below another when the wider one covers every
 * tag the narrower covers. On the distinct threat models (antichains, the
 * designer's list and the sweep's elements) covers are exactly the sets of
 * tags closed under "take a child", so the order is inclusion of covers: a
 * distributive lattice whose height is the number of tags.
 *
 * A cover is a bitset over the forest's tags in pre-order (a subtree is a
 * contiguous run of positions), so comparing two threat models is a few word
 * operations and a sweep of 351,974 never builds tag objects.
 */
import {
  CombinationCursor,
  combinationIndex,
  compareNames,
  countCombinations,
  forestOf,
  subtreeCounts,
  type Forest,
  type SecurityDomain,
  type SecurityDomainTag,
} from '../tags'
import type { NamedModel } from './order'
import type { SearchSpace } from './space'

/** Tags covered, one bit per pre-order position. */
export type Cover = Uint32Array

export class ThreatModelLattice implements SearchSpace {
  readonly domain: SecurityDomain
  /** Tags in pre-order: bit i of a cover is `preorder[i]`. */
  readonly preorder: readonly SecurityDomainTag[]
  readonly words: number
  /** Per position: its parent's position (-1 for a root) and its children's positions. */
  readonly parent: Int32Array
  readonly children: readonly Int32Array[]
  /** Distinct threat models, the empty one excluded (superred's Controller refuses it): what a sweep of --all runs. */
  readonly total: bigint
  readonly readOnly = false
  private readonly position: ReadonlyMap<string, number>
  private readonly subtreeMask: readonly Cover[]
  private readonly counts: Map<SecurityDomainTag, bigint>

  constructor(domain: SecurityDomain) {
    this.domain = domain
    // The cursor's own pre-order: one flattening of the forest for enumeration and order alike.
    this.preorder = new CombinationCursor(domain).preorder
    const n = this.preorder.length
    this.words = Math.max(1, Math.ceil(n / 32))
    this.position = new Map(this.preorder.map((t, i) => [t.name, i]))
    this.parent = new Int32Array(n).fill(-1)
    const kids: number[][] = this.preorder.map(() => [])
    this.preorder.forEach((t, i) => {
      if (t.parent !== null) {
        const p = this.position.get(t.parent.name)!
        this.parent[i] = p
        kids[p].push(i)
      }
    })
    this.children = kids.map((k) => Int32Array.from(k))
    // Pre-order: a subtree spans its root's position onwards; sizes summed from the end see children first.
    const size = new Int32Array(n).fill(1)
    for (let v = n - 1; v >= 0; v--) if (this.parent[v] >= 0) size[this.parent[v]] += size[v]
    this.subtreeMask = this.preorder.map((_, v) => {
      const mask = new Uint32Array(this.words)
      for (let i = v; i < v + size[v]; i++) mask[i >>> 5] |= 1 << (i & 31)
      return mask
    })
    this.counts = subtreeCounts(domain)
    this.total = countCombinations(domain) - 1n
  }

  /** The number of tags: the length of the longest chain of distinct non-empty threat models. */
  get height(): number {
    return this.preorder.length
  }

  empty(): Cover {
    return new Uint32Array(this.words)
  }

  has(c: Cover, v: number): boolean {
    return (c[v >>> 5] & (1 << (v & 31))) !== 0
  }

  /** The cover of a scope given by tag names (each with its subtree); an unknown name is an error. */
  coverOfNames(names: Iterable<string>): Cover {
    const c = this.empty()
    for (const name of names) {
      const v = this.position.get(name)
      if (v === undefined) throw new RangeError(`"${name}" is not a tag of this forest`)
      orInto(c, this.subtreeMask[v])
    }
    return c
  }

  /** The cover of the cursor's current combination, read off its positions (no tag objects). */
  coverOfCursor(cursor: CombinationCursor, into: Cover = this.empty()): Cover {
    into.fill(0)
    for (let i = 0; i < cursor.size; i++) orInto(into, this.subtreeMask[cursor.positionAt(i)])
    return into
  }

  /** The antichain a cover is: its tags whose parent it does not cover, in pre-order. */
  tops(c: Cover): number[] {
    const out: number[] = []
    for (let v = 0; v < this.preorder.length; v++) if (this.has(c, v) && !this.isCoveredParent(c, v)) out.push(v)
    return out
  }

  /** The scope a cover stands for, sorted as superred persists scopes. */
  scopeNames(c: Cover): string[] {
    return this.tops(c)
      .map((v) => this.preorder[v].name)
      .sort(compareNames)
  }

  /** Its index in superred's distinct_combinations() order (the designer's #N, the sweep's index). */
  indexOf(c: Cover): bigint {
    return combinationIndex(
      this.domain,
      this.tops(c).map((v) => this.preorder[v]),
      this.counts,
    )!
  }

  /** True when the cover holds tag v but not its parent: dropping v leaves a smaller threat model. */
  isTop(c: Cover, v: number): boolean {
    return this.has(c, v) && !this.isCoveredParent(c, v)
  }

  /** True when v is not covered but all its children are: granting v gives a threat model one step wider. */
  canAdd(c: Cover, v: number): boolean {
    if (this.has(c, v)) return false
    for (const k of this.children[v]) if (!this.has(c, k)) return false
    return true
  }

  /** A copy of c with tag v's bit flipped: one step down (v a top) or up (v addable) in the order. */
  toggled(c: Cover, v: number): Cover {
    const out = c.slice()
    out[v >>> 5] ^= 1 << (v & 31)
    return out
  }

  /** The pass of the scope-only space: superred's distinct_combinations() order, one cursor, nothing materialised. */
  *pass(): Generator<Cover, void, void> {
    yield* this.elements()
  }

  *elements(): Generator<Cover, void, void> {
    const cursor = new CombinationCursor(this.domain)
    const scratch = this.empty()
    cursor.next() // the empty threat model
    while (cursor.next()) yield this.coverOfCursor(cursor, scratch)
  }

  modelOf(c: Cover): NamedModel {
    return { scope: this.scopeNames(c), readOnly: [] }
  }

  /** A read-only grant is accepted only where the scope already writes it (it then changes nothing). */
  coverOfModel(m: NamedModel): Cover {
    const c = this.coverOfNames(m.scope)
    if (!coverLeq(this.coverOfNames(m.readOnly), c)) {
      throw new RangeError(
        `read_only [${m.readOnly.join(', ')}] grants what scope [${m.scope.join(', ')}] does not: not a scope-only threat model`,
      )
    }
    return c
  }

  label(c: Cover): string {
    return this.indexOf(c).toString()
  }

  forest(): Forest {
    return forestOf(this.domain)
  }

  /** The position of a tag by name, undefined when the forest has none. */
  positionOf(name: string): number | undefined {
    return this.position.get(name)
  }

  private isCoveredParent(c: Cover, v: number): boolean {
    const p = this.parent[v]
    return p >= 0 && this.has(c, p)
  }
}

function orInto(into: Cover, mask: Cover): void {
  for (let i = 0; i < into.length; i++) into[i] |= mask[i]
}

/** a ≤ b in the capability order: b covers every tag a covers. */
export function coverLeq(a: Cover, b: Cover): boolean {
  for (let i = 0; i < a.length; i++) if ((a[i] & ~b[i]) !== 0) return false
  return true
}

export function coverEquals(a: Cover, b: Cover): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

export function isEmptyCover(c: Cover): boolean {
  for (let i = 0; i < c.length; i++) if (c[i] !== 0) return false
  return true
}

/** How many tags a cover holds: its rank in the lattice. */
export function coverRank(c: Cover): number {
  let n = 0
  for (let i = 0; i < c.length; i++) {
    let w = c[i]
    while (w !== 0) {
      w &= w - 1
      n++
    }
  }
  return n
}

/** A string two covers share iff they are equal: for maps of evaluated threat models. */
export function coverKey(c: Cover): string {
  return Array.from(c, (w) => (w >>> 0).toString(36)).join('.')
}
