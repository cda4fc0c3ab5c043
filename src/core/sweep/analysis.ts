/**
 * What a sweep's results say about the forest, as pure functions:
 * - per tag, the success rate of the threat models that grant it (a model
 *   grants a tag when its scope or read_only covers it, superred's
 *   `scope_includes` over visibility: granting `system` grants its subtree);
 * - where a wider threat model did worse than a narrower one it contains
 *   (it can write everything the narrower can write and see everything it
 *   sees), which usually means noise, a flaky target, or an attacker that
 *   spends its runs on the wrong surface.
 * Coverage is a bitset over the forest's tags, so 1,000 models compare
 * pairwise in milliseconds.
 */
import { grantsEqual, grantsLeq, type Grants } from '../lattice'
import type { Forest } from '../tags'

export interface ModelOutcome {
  /** Experiment folder (or any unique key). */
  readonly key: string
  readonly scope: readonly string[]
  readonly readOnly: readonly string[]
  /** Tasks that succeeded, and tasks that count in the ASR (errors and skips do not). */
  readonly nSuccess: number
  readonly nCompleted: number
}

export interface TagPaint {
  /** Threat models with results that grant the tag. */
  readonly models: number
  /** Of those, how many broke the claim at least once. */
  readonly broken: number
  readonly successes: number
  readonly completed: number
  /** Pooled attack-success rate over those models' tasks; null with no completed task. */
  readonly rate: number | null
}

export interface WiderWorse {
  readonly wider: string
  readonly narrower: string
  readonly widerRate: number
  readonly narrowerRate: number
}

export const rateOf = (m: Pick<ModelOutcome, 'nSuccess' | 'nCompleted'>): number | null =>
  (m.nCompleted === 0 ? null : m.nSuccess / m.nCompleted)

class TagIndex {
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

  has(bits: Uint32Array, name: string): boolean {
    const i = this.index.get(name)
    return i !== undefined && (bits[i >>> 5] & (1 << (i & 31))) !== 0
  }
}

function union(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(a.length)
  for (let i = 0; i < a.length; i++) out[i] = a[i] | b[i]
  return out
}

/** Per tag: the pooled success rate of the threat models (with results) that grant it. */
export function paintForest(forest: Forest, models: readonly ModelOutcome[]): Map<string, TagPaint> {
  const idx = new TagIndex(forest)
  const acc = new Map(idx.names.map((n) => [n, { models: 0, broken: 0, successes: 0, completed: 0 }]))
  for (const m of models) {
    if (m.nCompleted === 0) continue
    const visible = union(idx.cover(m.scope), idx.cover(m.readOnly))
    for (const name of idx.names) {
      if (!idx.has(visible, name)) continue
      const a = acc.get(name)!
      a.models += 1
      a.broken += m.nSuccess > 0 ? 1 : 0
      a.successes += m.nSuccess
      a.completed += m.nCompleted
    }
  }
  return new Map([...acc].map(([n, a]) => [n, { ...a, rate: a.completed === 0 ? null : a.successes / a.completed }]))
}

/**
 * Every pair where a strictly wider threat model (write ⊇ and visibility ⊇,
 * not both equal) had a lower success rate than the narrower one. Models
 * without a completed task are left out.
 */
export function widerDidWorse(forest: Forest, models: readonly ModelOutcome[]): WiderWorse[] {
  const idx = new TagIndex(forest)
  const rows = models.flatMap((m) => {
    const rate = rateOf(m)
    if (rate === null) return []
    const write = idx.cover(m.scope)
    const grants: Grants = { write, visible: union(write, idx.cover(m.readOnly)) }
    return [{ key: m.key, rate, grants }]
  })
  const out: WiderWorse[] = []
  for (const w of rows) {
    for (const n of rows) {
      if (w === n || w.rate >= n.rate) continue
      // The capability order of src/core/lattice, the one the frontier search uses.
      if (!grantsLeq(n.grants, w.grants) || grantsEqual(n.grants, w.grants)) continue
      out.push({ wider: w.key, narrower: n.key, widerRate: w.rate, narrowerRate: n.rate })
    }
  }
  return out
}

/** Per wider model: the narrower model it did worst against, and how many narrower ones did better. */
export function worstPerWider(pairs: readonly WiderWorse[]): Map<string, { pair: WiderWorse; count: number }> {
  const out = new Map<string, { pair: WiderWorse; count: number }>()
  for (const p of pairs) {
    const cur = out.get(p.wider)
    if (!cur) out.set(p.wider, { pair: p, count: 1 })
    else out.set(p.wider, { pair: p.narrowerRate > cur.pair.narrowerRate ? p : cur.pair, count: cur.count + 1 })
  }
  return out
}
