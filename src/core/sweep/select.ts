/**
 * Which threat models a sweep runs, picked from superred's distinct
 * combinations (reference order) without enumerating them: all of them, all
 * that hold given tags, chosen indices or ranges of them, or a list of
 * (scope, read_only) pairs. The empty scope (#0) is always skipped, as
 * superred's docs tell callers to (the Controller refuses it).
 *
 * A selection is indexed: `at(rank)` decodes the rank-th threat model on
 * demand, so a sweep of 351,974 models, or one shard of it, never builds the
 * list.
 */
import { filterCombinations } from '../model/combinationFilter'
import { combinationAt, combinationIndex, compareNames, countCombinations, subtreeCounts, type SecurityDomain } from '../tags'
import { SweepPickError } from './errors'
import { parseIndexRanges } from './ranges'

export { SweepPickError }

/**
 * One text per threat model whatever order its grants are listed in: its scope and its read_only, each sorted as
 * superred persists them. A list of threat models drops the second of two that share it; `redscope compare`
 * matches threat models across results by it.
 */
export function threatModelKey(scope: readonly string[], readOnly: readonly string[]): string {
  return `${[...scope].sort(compareNames).join(',')}|${[...readOnly].sort(compareNames).join(',')}`
}

/** A threat model given by name: what a list of threat models holds. */
export interface NamedThreatModel {
  readonly scope: readonly string[]
  readonly readOnly: readonly string[]
  /** The name it was saved under (threat-models.json), kept into its experiment and sweep.json. */
  readonly name?: string
}

export type SweepPick =
  | { readonly kind: 'all' }
  | { readonly kind: 'tag'; readonly tag: string }
  /** Every combination holding all of these tags (the designer's "Containing" filter). */
  | { readonly kind: 'containing'; readonly tags: readonly string[] }
  | { readonly kind: 'indices'; readonly indices: readonly bigint[] }
  /** `1-100,205,300-`: see parseIndexRanges. */
  | { readonly kind: 'ranges'; readonly ranges: string }
  /** Threat models by name, in this order; duplicates dropped. */
  | { readonly kind: 'list'; readonly models: readonly NamedThreatModel[] }

export interface SweepModel {
  /** Index in the full reference list of distinct combinations. */
  readonly index: bigint
  /** Tag names, in the combination's order. */
  readonly scope: readonly string[]
}

export interface SelectedModel {
  /** Position in the selection (0-based): what shards are cut by. */
  readonly rank: bigint
  /** Index in the reference list when the scope is a distinct combination and read_only is empty, else null. */
  readonly index: bigint | null
  readonly scope: readonly string[]
  readonly readOnly: readonly string[]
  /** A listed threat model's saved name, when it has one. */
  readonly name?: string
}

/** The threat models of a pick, decoded one at a time. */
export interface Selection {
  readonly count: bigint
  at(rank: bigint): SelectedModel
}

const names = (tags: readonly { name: string }[]) => tags.map((t) => t.name)

function checkRank(rank: bigint, count: bigint): void {
  if (rank < 0n || rank >= count) throw new RangeError(`selection rank ${rank} is outside 0..${count - 1n}`)
}

function tagOf(domain: SecurityDomain, name: string) {
  const tag = domain.get(name)
  if (!tag) throw new SweepPickError(`"${name}" is not a tag of this forest`)
  return tag
}

/** A list of named threat models checked against the forest: known names, nothing empty, duplicates dropped. */
function listSelection(domain: SecurityDomain, models: readonly NamedThreatModel[]): Selection {
  const counts = subtreeCounts(domain)
  const seen = new Set<string>()
  const kept: SelectedModel[] = []
  models.forEach((m, i) => {
    for (const n of [...m.scope, ...m.readOnly]) {
      if (!domain.has(n)) throw new SweepPickError(`threat model [${i}]: "${n}" is not a tag of this forest`)
    }
    const scope = [...new Set(m.scope)]
    const readOnly = [...new Set(m.readOnly)]
    if (scope.length === 0 && readOnly.length === 0)
      throw new SweepPickError(`threat model [${i}]: scope and read_only cannot both be empty`)
    const key = threatModelKey(scope, readOnly)
    if (seen.has(key)) return
    seen.add(key)
    const index =
      readOnly.length === 0
        ? combinationIndex(
            domain,
            scope.map((n) => domain.get(n)!),
            counts,
          )
        : null
    kept.push({ rank: BigInt(kept.length), index, scope, readOnly, ...(m.name ? { name: m.name } : {}) })
  })
  return {
    count: BigInt(kept.length),
    at: (rank) => {
      checkRank(rank, BigInt(kept.length))
      return kept[Number(rank)]
    },
  }
}

/** The selection a pick names. Unknown tags, bad indices and empty threat models are refused up front. */
export function selectionOf(domain: SecurityDomain, pick: SweepPick): Selection {
  const counts = subtreeCounts(domain)
  const total = countCombinations(domain)
  const combination = (rank: bigint, index: bigint): SelectedModel => ({
    rank,
    index,
    scope: names(combinationAt(domain, index, counts)),
    readOnly: [],
  })
  switch (pick.kind) {
    case 'all': {
      const count = total - 1n
      return { count, at: (rank) => (checkRank(rank, count), combination(rank, rank + 1n)) }
    }
    case 'tag':
    case 'containing': {
      const tags = pick.kind === 'tag' ? [tagOf(domain, pick.tag)] : [...new Set(pick.tags)].map((n) => tagOf(domain, n))
      if (tags.length === 0) throw new SweepPickError('name at least one tag the threat models must contain')
      const f = filterCombinations(domain, tags, counts)
      return {
        count: f.count,
        at: (rank) => {
          checkRank(rank, f.count)
          const { index, tags: held } = f.at(rank)
          return { rank, index, scope: names(held), readOnly: [] }
        },
      }
    }
    case 'indices': {
      const sorted = [...new Set(pick.indices)].filter((i) => i !== 0n).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      const bad = sorted.find((i) => i < 0n || i >= total)
      if (bad !== undefined) throw new SweepPickError(`#${bad} is not a threat model of this forest (it has #0 to #${total - 1n})`)
      const count = BigInt(sorted.length)
      return { count, at: (rank) => (checkRank(rank, count), combination(rank, sorted[Number(rank)])) }
    }
    case 'ranges': {
      const r = parseIndexRanges(pick.ranges, total)
      return { count: r.count, at: (rank) => combination(rank, r.at(rank)) }
    }
    case 'list':
      return listSelection(domain, pick.models)
  }
}

/** How many threat models a pick names (the empty set excluded). */
export function countPick(domain: SecurityDomain, pick: SweepPick): bigint {
  if (pick.kind === 'indices') return BigInt(new Set(pick.indices.filter((i) => i !== 0n)).size)
  return selectionOf(domain, pick).count
}

/** The first `limit` threat models of a pick that are distinct combinations, in selection order. */
export function expandPick(domain: SecurityDomain, pick: SweepPick, limit: number): SweepModel[] {
  const selection = selectionOf(domain, pick)
  const out: SweepModel[] = []
  for (let rank = 0n; rank < selection.count && out.length < limit; rank++) {
    const m = selection.at(rank)
    if (m.index !== null) out.push({ index: m.index, scope: m.scope })
  }
  return out
}
