import { resolveDomains } from './pairing'
import { surfaceName, type PersistedItemLike } from './items'

/**
 * Aligns two runs for a diff. Event ids differ between runs, so items are
 * matched by their shape (kind, type, domain, surface) with a Myers diff; a
 * matched pair whose payload differs is "changed". Common ends are stripped
 * first, and past `maxEdits` the middle is paired position by position, so
 * that two huge, very different runs still diff in bounded time and memory.
 */
export type DiffStatus = 'same' | 'changed' | 'removed' | 'added'

export interface DiffRow {
  readonly a: number
  readonly b: number
  readonly status: DiffStatus
}

export interface RunDiff {
  readonly rows: readonly DiffRow[]
  readonly counts: Readonly<Record<DiffStatus, number>>
  /** True when the edit budget ran out and the middle was paired by position. */
  readonly approximate: boolean
}

/** The fields whose change is what the diff highlights (the payload, not the ids or times). */
export function payloadOf(item: PersistedItemLike): Record<string, unknown> {
  const rest: Record<string, unknown> = { ...item }
  for (const k of ['kind', 'type', 'event_id', 'timestamp']) delete rest[k]
  return rest
}

function signatures(items: readonly PersistedItemLike[]): string[] {
  const { domains } = resolveDomains(items)
  return items.map((it, i) => `${it.kind}|${it.type}|${domains[i] ?? ''}|${surfaceName(it) ?? ''}`)
}

function samePayload(a: PersistedItemLike, b: PersistedItemLike): boolean {
  return JSON.stringify(payloadOf(a)) === JSON.stringify(payloadOf(b))
}

/** Myers' O((N+M)·D) shortest edit script over [a0,a1) × [b0,b1); null past maxEdits. */
function myers(
  sa: readonly string[],
  sb: readonly string[],
  a0: number,
  a1: number,
  b0: number,
  b1: number,
  maxEdits: number,
): Array<[number, number]> | null {
  const n = a1 - a0
  const m = b1 - b0
  const max = Math.min(n + m, maxEdits)
  const offset = max + 1
  let v = new Int32Array(2 * max + 3)
  const trace: Int32Array[] = []
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice())
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1
      let y = x - k
      while (x < n && y < m && sa[a0 + x] === sb[b0 + y]) {
        x++
        y++
      }
      v[offset + k] = x
      if (x >= n && y >= m) {
        // Walk the trace back to list the matched pairs.
        const pairs: Array<[number, number]> = []
        let cx = n
        let cy = m
        for (let dd = d; dd > 0; dd--) {
          const pv = trace[dd]
          const kk = cx - cy
          const prevK = kk === -dd || (kk !== dd && pv[offset + kk - 1] < pv[offset + kk + 1]) ? kk + 1 : kk - 1
          const px = pv[offset + prevK]
          const py = px - prevK
          while (cx > px && cy > py) {
            pairs.push([a0 + cx - 1, b0 + cy - 1])
            cx--
            cy--
          }
          cx = px
          cy = py
        }
        while (cx > 0 && cy > 0) {
          pairs.push([a0 + cx - 1, b0 + cy - 1])
          cx--
          cy--
        }
        return pairs.reverse()
      }
    }
    v = v.slice()
  }
  return null
}

export function diffRuns(a: readonly PersistedItemLike[], b: readonly PersistedItemLike[], maxEdits = 2000): RunDiff {
  const sa = signatures(a)
  const sb = signatures(b)
  let start = 0
  while (start < a.length && start < b.length && sa[start] === sb[start]) start++
  let endA = a.length
  let endB = b.length
  while (endA > start && endB > start && sa[endA - 1] === sb[endB - 1]) {
    endA--
    endB--
  }
  let pairs = myers(sa, sb, start, endA, start, endB, maxEdits)
  const approximate = pairs === null
  if (pairs === null) {
    pairs = []
    for (let i = 0; start + i < endA && start + i < endB; i++) pairs.push([start + i, start + i])
  }
  const rows: DiffRow[] = []
  const counts: Record<DiffStatus, number> = { same: 0, changed: 0, removed: 0, added: 0 }
  const push = (ai: number, bi: number, status: DiffStatus) => {
    rows.push({ a: ai, b: bi, status })
    counts[status]++
  }
  const matched = (ai: number, bi: number) => push(ai, bi, sa[ai] === sb[bi] && samePayload(a[ai], b[bi]) ? 'same' : 'changed')
  for (let i = 0; i < start; i++) matched(i, i)
  let ia = start
  let ib = start
  for (const [pa, pb] of pairs) {
    while (ia < pa) push(ia++, -1, 'removed')
    while (ib < pb) push(-1, ib++, 'added')
    matched(ia++, ib++)
  }
  while (ia < endA) push(ia++, -1, 'removed')
  while (ib < endB) push(-1, ib++, 'added')
  for (let i = 0; endA + i < a.length; i++) matched(endA + i, endB + i)
  return { rows, counts, approximate }
}

/** Splits two strings into common prefix, differing middles and common suffix, for highlighting. */
export function textDelta(a: string, b: string): { prefix: string; a: string; b: string; suffix: string } {
  let p = 0
  const min = Math.min(a.length, b.length)
  while (p < min && a.charCodeAt(p) === b.charCodeAt(p)) p++
  let s = 0
  while (s < min - p && a.charCodeAt(a.length - 1 - s) === b.charCodeAt(b.length - 1 - s)) s++
  return { prefix: a.slice(0, p), a: a.slice(p, a.length - s), b: b.slice(p, b.length - s), suffix: a.slice(a.length - s) }
}
