/** Why a run ended, in words (run_records.json's `ended_by`; the engine's RunEndCause). */
import type { RunEndCause } from '../engine/outcomes'
import { assertNever } from '../engine/assertNever'

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** Short, for a table cell: "turn limit", "attacker declined", "target finished", "time cap", "error"; long with the turns. */
export function runEndWords(cause: RunEndCause | null | undefined, turns: number | null = null, long = false): string {
  if (cause === null || cause === undefined)
    return long ? 'not recorded (a tree written before redscope recorded why runs end)' : 'not recorded'
  // `turns` counts every pause the attacker was asked about; where it declined, the last one was asked, not played.
  const played = turns === null ? null : cause === 'turn_limit' || cause === 'declined' ? Math.max(0, turns - 1) : turns
  const after = long && played !== null ? ` after ${plural(played, 'turn')}` : ''
  switch (cause) {
    case 'turn_limit':
      return long ? `ended by the attacker's turn limit${after} (it declined the rest)` : 'turn limit'
    case 'declined':
      return long ? `the attacker declined to go on${after}` : 'attacker declined'
    case 'target':
      return long ? `the target finished the run${after}` : 'target finished'
    case 'time_cap':
      return long ? `cut short by the task's time cap${after}` : 'time cap'
    case 'error':
      return long ? `failed${after}` : 'error'
    default:
      return assertNever(cause, 'run end cause')
  }
}

/** "2 turn limit, 1 target finished": how a set of runs ended, most frequent first; '' when none records it. */
export function runEndsSummary(causes: Iterable<RunEndCause | null | undefined>): string {
  const counts = new Map<RunEndCause, number>()
  for (const c of causes) if (c !== null && c !== undefined) counts.set(c, (counts.get(c) ?? 0) + 1)
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([c, n]) => `${n} ${runEndWords(c)}`)
    .join(', ')
}
