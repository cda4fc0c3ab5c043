import type { Replay } from './replay'

/** Bits of a minimap bin: what the rows it stands for contain. */
export const BIN = { injection: 1, declinedScope: 2, declinedOptimizer: 4, readOnly: 8, hidden: 16, runEnd: 32 } as const

/**
 * The run squeezed into `bins` buckets for the scrubber: each bucket says
 * whether its rows hold an injection, a decline, a read-only surface, a gap.
 * One pass over the rows; the scrubber draws `bins` rectangles, not 100,000.
 */
export function markBins(replay: Replay, bins: number): Uint8Array {
  const n = Math.max(1, Math.min(bins, replay.rows))
  const out = new Uint8Array(n)
  for (let row = 0; row < replay.rows; row++) {
    const b = Math.min(n - 1, Math.floor((row * n) / replay.rows))
    const mark = replay.mark(row)
    let bits = 0
    if (mark === 'injection') bits |= BIN.injection
    else if (mark === 'declined-scope') bits |= BIN.declinedScope
    else if (mark === 'declined-optimizer') bits |= BIN.declinedOptimizer
    else if (mark === 'read-only') bits |= BIN.readOnly
    else if (mark === 'run-end') bits |= BIN.runEnd
    if (replay.alignment.attacker[row] < 0) bits |= BIN.hidden
    out[b] |= bits
  }
  return out
}
