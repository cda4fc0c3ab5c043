/**
 * Which threat models a sweep runs, picked from superred's distinct
 * combinations (reference order) without enumerating them: all of them, all
 * that grant a tag, or chosen indices. The empty scope (#0) is always
 * skipped, as superred's docs tell callers to (the Controller refuses it).
 */
import { filterCombinations } from '../model/combinationFilter'
import { combinationAt, countCombinations, subtreeCounts, type SecurityDomain } from '../tags'

export type SweepPick =
  | { readonly kind: 'all' }
  | { readonly kind: 'tag'; readonly tag: string }
  | { readonly kind: 'indices'; readonly indices: readonly bigint[] }

export interface SweepModel {
  /** Index in the full reference list of distinct combinations. */
  readonly index: bigint
  /** Tag names, in the combination's order. */
  readonly scope: readonly string[]
}

export class SweepPickError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SweepPickError'
  }
}

/** How many threat models a pick names (the empty set excluded). */
export function countPick(domain: SecurityDomain, pick: SweepPick): bigint {
  switch (pick.kind) {
    case 'all': return countCombinations(domain) - 1n
    case 'tag': {
      const tag = domain.get(pick.tag)
      if (!tag) throw new SweepPickError(`"${pick.tag}" is not a tag of this forest`)
      return filterCombinations(domain, [tag]).count
    }
    case 'indices': return BigInt(new Set(pick.indices.filter((i) => i !== 0n)).size)
  }
}

/** The first `limit` threat models of a pick, in reference order. */
export function expandPick(domain: SecurityDomain, pick: SweepPick, limit: number): SweepModel[] {
  const counts = subtreeCounts(domain)
  const names = (tags: readonly { name: string }[]) => tags.map((t) => t.name)
  const out: SweepModel[] = []
  switch (pick.kind) {
    case 'all': {
      const total = countCombinations(domain)
      for (let i = 1n; i < total && out.length < limit; i++) out.push({ index: i, scope: names(combinationAt(domain, i, counts)) })
      return out
    }
    case 'tag': {
      const tag = domain.get(pick.tag)
      if (!tag) throw new SweepPickError(`"${pick.tag}" is not a tag of this forest`)
      const f = filterCombinations(domain, [tag], counts)
      for (let i = 0n; i < f.count && out.length < limit; i++) {
        const { index, tags } = f.at(i)
        out.push({ index, scope: names(tags) })
      }
      return out
    }
    case 'indices': {
      const total = countCombinations(domain)
      const sorted = [...new Set(pick.indices)].filter((i) => i !== 0n).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      for (const i of sorted) {
        if (out.length >= limit) break
        if (i < 0n || i >= total) throw new SweepPickError(`#${i} is not a threat model of this forest (it has #0 to #${total - 1n})`)
        out.push({ index: i, scope: names(combinationAt(domain, i, counts)) })
      }
      return out
    }
  }
}
