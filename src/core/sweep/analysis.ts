/**
 * What a sweep's results say about pairs of threat models, as pure functions:
 * where a wider threat model did worse than a narrower one it contains (it can
 * write everything the narrower can write and see everything it sees), which
 * usually means noise, a flaky target, or an attacker that spends its runs on
 * the wrong surface. The painting of the forest is paint.ts. Coverage is a
 * bitset over the forest's tags, so 1,000 models compare pairwise in
 * milliseconds.
 */
import { grantsEqual, grantsLeq, type Grants } from '../lattice'
import type { Forest } from '../tags'
import { TagIndex, union } from './tagIndex'

export interface ModelOutcome {
  /** Experiment folder (or any unique key). */
  readonly key: string
  readonly scope: readonly string[]
  readonly readOnly: readonly string[]
  /** Tasks that succeeded, and tasks that count in the ASR (errors and skips do not). */
  readonly nSuccess: number
  readonly nCompleted: number
}

export interface WiderWorse {
  readonly wider: string
  readonly narrower: string
  readonly widerRate: number
  readonly narrowerRate: number
}

export const rateOf = (m: Pick<ModelOutcome, 'nSuccess' | 'nCompleted'>): number | null =>
  m.nCompleted === 0 ? null : m.nSuccess / m.nCompleted

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
