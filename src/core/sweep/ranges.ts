/**
 * Combination indices as inclusive ranges, `1-100,205,300-` (an open end runs
 * to the forest's last combination), kept as sorted disjoint intervals so that
 * a range of a million indices costs two numbers, and the k-th index is a
 * binary search away.
 */
import { SweepPickError } from './errors'

export interface IndexRanges {
  /** Sorted, disjoint, merged, inclusive; #0 (the empty scope) never included. */
  readonly intervals: ReadonlyArray<readonly [bigint, bigint]>
  readonly count: bigint
  /** The k-th index in increasing order (0-based). */
  at(k: bigint): bigint
  /** The canonical text: `1-100,205,300-351973`. */
  readonly text: string
}

const PIECE = /^(\d+)(?:\s*-\s*(\d*))?$/

/**
 * Parses `text` against a forest of `total` combinations (#0 to #total-1).
 * Overlaps merge, #0 is dropped (the Controller refuses an empty scope), and
 * anything unreadable or out of range is refused naming the piece.
 */
export function parseIndexRanges(text: string, total: bigint): IndexRanges {
  const raw: Array<[bigint, bigint]> = []
  const pieces = text.split(',').map((p) => p.trim())
  if (pieces.every((p) => p === '')) throw new SweepPickError('no index given (e.g. 1-100,205,300-)')
  for (const piece of pieces) {
    if (piece === '') continue
    const m = PIECE.exec(piece)
    if (!m) throw new SweepPickError(`'${piece}' is not an index or a range of indices (e.g. 1-100,205,300-)`)
    const lo = BigInt(m[1])
    const hi = m[2] === undefined ? lo : m[2] === '' ? total - 1n : BigInt(m[2])
    if (hi < lo) throw new SweepPickError(`'${piece}' runs backwards: write the smaller index first`)
    const outside = lo >= total ? lo : hi >= total ? hi : null
    if (outside !== null) throw new SweepPickError(`#${outside} is not a threat model of this forest (it has #0 to #${total - 1n})`)
    raw.push([lo, hi])
  }
  raw.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
  const merged: Array<[bigint, bigint]> = []
  for (const [lo0, hi] of raw) {
    const lo = lo0 === 0n ? 1n : lo0
    if (hi < lo) continue
    const last = merged.at(-1)
    if (last && lo <= last[1] + 1n) last[1] = hi > last[1] ? hi : last[1]
    else merged.push([lo, hi])
  }
  // before[i]: how many indices the intervals before i hold.
  const before: bigint[] = []
  let count = 0n
  for (const [lo, hi] of merged) {
    before.push(count)
    count += hi - lo + 1n
  }
  const at = (k: bigint): bigint => {
    if (k < 0n || k >= count) throw new RangeError(`range position ${k} is outside 0..${count - 1n}`)
    let a = 0
    let b = merged.length - 1
    while (a < b) {
      const mid = (a + b + 1) >> 1
      if (before[mid] <= k) a = mid
      else b = mid - 1
    }
    return merged[a][0] + (k - before[a])
  }
  const canonical = merged.map(([lo, hi]) => (lo === hi ? `${lo}` : `${lo}-${hi}`)).join(',')
  return { intervals: merged, count, at, text: canonical }
}
