import type { Replay } from '../../../core/replay'
import type { StepAnnotation } from '../../../core/finding'
import type { StepAction } from './keys'

/**
 * Where a stepping command leads: a row in this run, another run, or a mode
 * change. Pure, so the table and the presenter step the same way.
 */
export type StepTarget =
  | { readonly kind: 'row'; readonly row: number }
  | { readonly kind: 'run'; readonly run: number }
  | { readonly kind: 'bookmark' }
  | { readonly kind: 'presenter' }
  | { readonly kind: 'exit' }
  | { readonly kind: 'none'; readonly why?: string }

export function stepTarget(
  action: StepAction,
  replay: Replay,
  row: number,
  annotations: ReadonlyMap<number, StepAnnotation>,
  runs: { prev: number | null; next: number | null },
): StepTarget {
  const to = (r: number, why: string): StepTarget => (r < 0 ? { kind: 'none', why } : { kind: 'row', row: r })
  const bookmarked = (r: number) => annotations.get(replay.itemOfRow(r))?.bookmarked === true
  switch (action) {
    case 'next':
      return to(row + 1 < replay.rows ? row + 1 : -1, 'This is the last event.')
    case 'prev':
      return to(row - 1, 'This is the first event.')
    case 'first':
      return to(0, '')
    case 'last':
      return to(replay.rows - 1, '')
    case 'next-injection':
      return to(
        replay.find(row, 1, (r) => replay.mark(r) === 'injection'),
        'No injection after this event.',
      )
    case 'prev-injection':
      return to(
        replay.find(row, -1, (r) => replay.mark(r) === 'injection'),
        'No injection before this event.',
      )
    case 'next-bookmark':
      return to(replay.find(row, 1, bookmarked), 'No bookmark after this event.')
    case 'prev-bookmark':
      return to(replay.find(row, -1, bookmarked), 'No bookmark before this event.')
    case 'next-run':
      return runs.next === null ? { kind: 'none', why: 'This is the last run.' } : { kind: 'run', run: runs.next }
    case 'prev-run':
      return runs.prev === null ? { kind: 'none', why: 'This is the first run.' } : { kind: 'run', run: runs.prev }
    case 'toggle-bookmark':
      return { kind: 'bookmark' }
    case 'toggle-presenter':
      return { kind: 'presenter' }
    case 'exit':
      return { kind: 'exit' }
  }
}
