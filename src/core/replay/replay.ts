import { alignByVisibility, alignWithAttackerFile, itemKeys, type Alignment } from './align'
import type { CoverageModel } from './coverage'
import { explain, type Explanation } from './explain'
import type { ItemMark, PersistedItemLike } from './items'
import { markOf } from './marks'
import { resolveDomains } from './pairing'
import { learnedThroughFeedback, type Learned } from './learned'

/**
 * One run, ready to show side by side: the full trajectory, the attacker's
 * view (from its file, else recomputed from the coverage), their row
 * alignment, and per-row marks and explanations computed on demand, so that
 * a 100,000-item run costs a few typed arrays up front and nothing per row
 * until the row is on screen.
 */
export interface Replay {
  readonly items: readonly PersistedItemLike[]
  readonly attackerItems: readonly PersistedItemLike[]
  readonly viewSource: ViewSource
  readonly coverage: CoverageModel
  readonly alignment: Alignment
  readonly rows: number
  /** Items hidden from the attacker (gaps on its side). */
  readonly hiddenCount: number
  /**
   * What of a hidden row's item reached the attacker all the same, through the evaluation's feedback at the
   * run's end (learned.ts); null for a row it saw, or whose text the feedback does not hold. Derived once, when first asked.
   */
  learned(row: number): Learned | null
  /** Hidden items whose text reached the attacker through the feedback. */
  learnedCount(): number
  fullItem(row: number): PersistedItemLike | null
  attackerItem(row: number): PersistedItemLike | null
  domain(row: number): string | null
  mark(row: number): ItemMark
  explain(row: number): Explanation
  /** The row showing full item `index` (deep links address full-trajectory indices). */
  rowOfItem(index: number): number
  /** The full-trajectory index of a row, or -1 for an attacker-only row. */
  itemOfRow(row: number): number
  /** The next row after `from` (before it, with dir -1) for which `pred` holds, or -1. */
  find(from: number, dir: 1 | -1, pred: (row: number) => boolean): number
}

/**
 * Where the attacker's side comes from: its run's attacker file (older redscope trees), derived with the engine's
 * filter from the run and the experiment's own forest (redscope trees since), or recomputed from a coverage model
 * (a superred tree, or a forest the user attached): only the last is a prediction.
 */
export type ViewSource = 'attacker-file' | 'derived' | 'recomputed'

export function buildReplay(
  items: readonly PersistedItemLike[],
  attackerFileItems: readonly PersistedItemLike[] | null,
  coverage: CoverageModel,
  recordedAs: 'attacker-file' | 'derived' = 'attacker-file',
): Replay {
  const viewSource: ViewSource = attackerFileItems === null ? 'recomputed' : recordedAs
  const resolved = resolveDomains(items)
  let alignment: Alignment
  let attackerItems: readonly PersistedItemLike[]
  if (attackerFileItems !== null) {
    alignment = alignWithAttackerFile(items, attackerFileItems, itemKeys(items, resolved))
    attackerItems = attackerFileItems
  } else {
    const visible = new Uint8Array(items.length)
    const picked: PersistedItemLike[] = []
    for (let i = 0; i < items.length; i++) {
      if (coverage.isVisible(resolved.domains[i])) {
        visible[i] = 1
        picked.push(items[i])
      }
    }
    alignment = alignByVisibility(visible)
    attackerItems = picked
  }
  const attackerResolved = attackerFileItems === null ? null : resolveDomains(attackerFileItems)
  let hidden = 0
  for (let r = 0; r < alignment.rows; r++) if (alignment.attacker[r] < 0) hidden++
  let rowIndex: Int32Array | null = null
  const domain = (row: number): string | null => {
    const f = alignment.full[row]
    if (f >= 0) return resolved.domains[f]
    const a = alignment.attacker[row]
    return a >= 0 && attackerResolved ? attackerResolved.domains[a] : null
  }
  const itemAt = (row: number) => {
    const f = alignment.full[row]
    return f >= 0 ? items[f] : attackerItems[alignment.attacker[row]]
  }
  const mark = (row: number) => markOf(itemAt(row), domain(row), coverage)
  let learnedByItem: Map<number, Learned> | null = null
  const learnedMap = () => {
    if (learnedByItem === null) {
      const hiddenItems: number[] = []
      for (let r = 0; r < alignment.rows; r++) if (alignment.attacker[r] < 0 && alignment.full[r] >= 0) hiddenItems.push(alignment.full[r])
      learnedByItem = learnedThroughFeedback(items, attackerItems, hiddenItems)
    }
    return learnedByItem
  }
  const learned = (row: number): Learned | null => {
    if (alignment.attacker[row] >= 0 || alignment.full[row] < 0) return null
    return learnedMap().get(alignment.full[row]) ?? null
  }
  return {
    items,
    attackerItems,
    viewSource,
    coverage,
    alignment,
    rows: alignment.rows,
    hiddenCount: hidden,
    learned,
    learnedCount: () => learnedMap().size,
    fullItem: (row) => (alignment.full[row] >= 0 ? items[alignment.full[row]] : null),
    attackerItem: (row) => (alignment.attacker[row] >= 0 ? attackerItems[alignment.attacker[row]] : null),
    domain,
    mark,
    explain: (row) =>
      explain({
        item: itemAt(row),
        domain: domain(row),
        mark: mark(row),
        coverage,
        attackerSaw: alignment.attacker[row] >= 0,
        learned: learned(row),
        viewSource,
      }),
    rowOfItem(index) {
      if (alignment.attackerOnly === 0) return Math.max(0, Math.min(index, alignment.rows - 1))
      if (rowIndex === null) {
        rowIndex = new Int32Array(items.length)
        for (let r = 0; r < alignment.rows; r++) if (alignment.full[r] >= 0) rowIndex[alignment.full[r]] = r
      }
      return rowIndex[Math.max(0, Math.min(index, items.length - 1))] ?? 0
    },
    itemOfRow: (row) => alignment.full[row] ?? -1,
    find(from, dir, pred) {
      for (let r = from + dir; r >= 0 && r < alignment.rows; r += dir) if (pred(r)) return r
      return -1
    },
  }
}
