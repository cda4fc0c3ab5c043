/**
 * The full space of threat models: per tag, not granted < read only < read &
 * write, a grant covering the tag's subtree (docs/frontier.md). An element is
 * two covers, what the attacker writes (W) inside what it sees (V ⊇ W), kept
 * as one bitset: bit v is "writes tag v", bit n + v is "sees tag v". Both
 * covers are closed under "take a child", and writing implies seeing, so an
 * element is a down-set of those 2n bits and the order is inclusion, exactly
 * as for the scope-only lattice: the frontier search, Knowledge and the
 * contradictions run on it unchanged. Its height is 2n.
 *
 * A forest of n tags has up to 3^n such elements (AgentDojo: far too many to
 * list), so the pass does not enumerate: it splits the space on one bit at a
 * time and drops a whole block as soon as every element in it lies above a
 * known win or below a known loss (see `pass`).
 */
import { compareNames, type Forest } from '../tags'
import { coverLeq, isEmptyCover, ThreatModelLattice, type Cover } from './lattice'
import type { Grants, NamedModel } from './order'
import type { Decider, SearchSpace } from './space'

export class GrantLattice implements SearchSpace {
  readonly base: ThreatModelLattice
  readonly height: number
  readonly total: bigint
  readonly readOnly = true
  private readonly n: number
  private readonly words: number
  /** Every valid bit set: the top element. */
  private readonly all: Cover
  /** Per bit: the bits it implies (itself and below), and the bits that imply it (itself and above). */
  private readonly down: Cover[]
  private readonly up: Cover[]

  constructor(base: ThreatModelLattice) {
    this.base = base
    this.n = base.height
    this.height = 2 * this.n
    this.words = Math.max(1, Math.ceil(this.height / 32))
    const n = this.n
    const subtree = base.preorder.map((t) => base.coverOfNames([t.name]))
    const ancestry = base.preorder.map((_, v) => {
      const out: number[] = []
      for (let a = v; a >= 0; a = base.parent[a]) out.push(a)
      return out
    })
    this.down = []
    this.up = []
    for (let b = 0; b < this.height; b++) {
      const v = b % n
      const d = this.empty()
      const u = this.empty()
      for (let i = 0; i < n; i++) {
        if (!base.has(subtree[v], i)) continue
        set(d, n + i)
        if (b < n) set(d, i)
      }
      for (const a of ancestry[v]) {
        set(u, a)
        if (b >= n) set(u, n + a)
      }
      this.down.push(d)
      this.up.push(u)
    }
    this.all = this.empty()
    for (let b = 0; b < this.height; b++) set(this.all, b)
    this.total = countGrants(base) - 1n
  }

  empty(): Cover {
    return new Uint32Array(this.words)
  }

  isTop(c: Cover, b: number): boolean {
    if (!has(c, b)) return false
    const n = this.n
    const v = b % n
    const p = this.base.parent[v]
    if (b < n) return p < 0 || !has(c, p)
    return !has(c, v) && (p < 0 || !has(c, n + p))
  }

  canAdd(c: Cover, b: number): boolean {
    if (has(c, b)) return false
    const n = this.n
    const v = b % n
    if (b < n && !has(c, n + v)) return false
    const offset = b < n ? 0 : n
    for (const k of this.base.children[v]) if (!has(c, offset + k)) return false
    return true
  }

  toggled(c: Cover, b: number): Cover {
    const out = c.slice()
    out[b >>> 5] ^= 1 << (b & 31)
    return out
  }

  /**
   * Splits the space on bits and keeps only blocks that may hold an undecided
   * element. A block is every element between IN (bits granted) and the
   * complement of OUT (bits refused); IN and ~OUT are elements themselves, so
   * the block is decided at once when IN is above a win or ~OUT below a loss.
   * Otherwise it splits on a bit that matters: one that a still reachable win
   * needs, else one that takes the block's top below a reachable loss; with
   * neither, IN is undecided and is yielded for the search to settle. The
   * empty element counts as a loss (superred refuses to run it).
   */
  *pass(decider: Decider): Generator<Cover, void, void> {
    yield* this.enumerate(decider, this.empty(), this.empty(), false)
  }

  *elements(): Generator<Cover, void, void> {
    const none: Decider = { aboveWin: () => false, belowLoss: () => false, wins: () => [], losses: () => [] }
    yield* this.enumerate(none, this.empty(), this.empty(), true)
  }

  modelOf(c: Cover): NamedModel {
    const { write, visible } = this.grants(c)
    const scope = this.base.scopeNames(write)
    const readOnly = this.base
      .tops(visible)
      .filter((v) => !this.base.has(write, v))
      .map((v) => this.base.preorder[v].name)
      .sort(compareNames)
    return { scope, readOnly }
  }

  coverOfModel(m: NamedModel): Cover {
    const write = this.base.coverOfNames(m.scope)
    const visible = this.base.coverOfNames([...m.scope, ...m.readOnly])
    const c = this.empty()
    for (let v = 0; v < this.n; v++) {
      if (this.base.has(write, v)) set(c, v)
      if (this.base.has(visible, v)) set(c, this.n + v)
    }
    return c
  }

  label(c: Cover): string {
    const m = this.modelOf(c)
    const scope = this.base.indexOf(this.base.coverOfNames(m.scope)).toString()
    return m.readOnly.length === 0 ? scope : `${scope}/${this.base.indexOf(this.base.coverOfNames(m.readOnly)).toString()}`
  }

  forest(): Forest {
    return this.base.forest()
  }

  /** The element as the order's two covers (src/core/lattice/order.ts). */
  grants(c: Cover): Grants {
    const write = this.base.empty()
    const visible = this.base.empty()
    for (let v = 0; v < this.n; v++) {
      if (has(c, v)) set(write, v)
      if (has(c, this.n + v)) set(visible, v)
    }
    return { write, visible }
  }

  /** The block [inn, ~out]; with `all`, every non-empty element of it (no knowledge, no pruning). */
  private *enumerate(d: Decider, inn: Cover, out: Cover, all: boolean): Generator<Cover, void, void> {
    for (;;) {
      const top = this.topOf(out)
      if (!all && (d.aboveWin(inn) || isEmptyCover(top) || d.belowLoss(top))) return
      const b = all ? this.firstFree(inn, out) : this.splitBit(d, inn, top)
      if (b < 0) {
        if (all) {
          if (!isEmptyCover(inn)) yield inn
          return
        }
        // IN was settled undecided (a noisy target's test): no verdict splits the block, so split it on any free
        // bit, as `all` does, until the blocks are decided or IN is alone.
        if (d.undecided?.(inn)) {
          const f = this.firstFree(inn, out)
          if (f < 0) return
          yield* this.enumerate(d, orOf(inn, this.down[f]), out, all)
          yield* this.enumerate(d, inn, orOf(out, this.up[f]), all)
          return
        }
        yield inn
        continue
      }
      yield* this.enumerate(d, orOf(inn, this.down[b]), out, all)
      yield* this.enumerate(d, inn, orOf(out, this.up[b]), all)
      return
    }
  }

  private topOf(out: Cover): Cover {
    const t = this.empty()
    for (let i = 0; i < t.length; i++) t[i] = this.all[i] & ~out[i]
    return t
  }

  private firstFree(inn: Cover, out: Cover): number {
    for (let b = 0; b < this.height; b++) if (!has(inn, b) && !has(out, b)) return b
    return -1
  }

  /** A bit worth splitting on, -1 when every element of the block is undecided (then IN is one). */
  private splitBit(d: Decider, inn: Cover, top: Cover): number {
    for (const w of d.wins()) {
      if (!coverLeq(w, top)) continue // refused bits: no element of the block reaches this win
      for (let b = 0; b < this.height; b++) if (has(w, b) && !has(inn, b)) return b
    }
    // No win reachable: the block is decided where it lies below a loss. The empty element is one.
    const losses = [this.empty(), ...d.losses()]
    for (const l of losses) {
      if (!coverLeq(inn, l)) continue
      for (let b = 0; b < this.height; b++) if (has(top, b) && !has(l, b) && !has(inn, b)) return b
    }
    return -1
  }
}

/** Elements of the full space on a forest, the empty one included: per tree, levels that never drop from parent to child. */
export function countGrants(base: ThreatModelLattice): bigint {
  const n = base.height
  // ways[v][l]: down-sets of v's subtree whose level at v is at least l (0 none, 1 read, 2 write).
  const ways: bigint[][] = Array.from({ length: n }, () => [0n, 0n, 0n])
  for (let v = n - 1; v >= 0; v--) {
    const at = [0n, 0n, 0n]
    for (let level = 0; level < 3; level++) {
      let p = 1n
      for (const k of base.children[v]) p *= ways[k][level]
      at[level] = p
    }
    ways[v] = [at[0] + at[1] + at[2], at[1] + at[2], at[2]]
  }
  let total = 1n
  for (let v = 0; v < n; v++) if (base.parent[v] < 0) total *= ways[v][0]
  return total
}

function has(c: Cover, b: number): boolean {
  return (c[b >>> 5] & (1 << (b & 31))) !== 0
}

function set(c: Cover, b: number): void {
  c[b >>> 5] |= 1 << (b & 31)
}

function orOf(a: Cover, b: Cover): Cover {
  const out = a.slice()
  for (let i = 0; i < out.length; i++) out[i] |= b[i]
  return out
}
