import { useImperativeHandle, useRef, type Ref } from 'react'
import { useVirtualizer } from '@tanstack/react-virtual'
import { stepNumber, type Replay } from '../../../core/replay'
import type { StepAnnotation } from '../../../core/finding'
import { GapCell, ItemCell } from './ItemViews'

export interface TableHandle {
  scrollToRow(row: number): void
}

interface Props {
  readonly replay: Replay
  readonly selected: number
  readonly annotations: ReadonlyMap<number, StepAnnotation>
  readonly onSelect: (row: number) => void
  readonly handle: Ref<TableHandle>
  /** Full-trajectory indices of the injections an echoed run's evidence was found in. */
  readonly echoItems?: ReadonlySet<number>
}

export const ROW_HEIGHT = 60

/**
 * A run this short is rendered whole (the browser's find-in-page sees every
 * row). A longer one keeps 3 rows beyond each edge of the screen: a fast
 * scroll rewrites every rendered row each frame, and at 8 a side the
 * renderer spent about a fifth more time per frame.
 */
const WHOLE_RUN_ROWS = 64

/**
 * Rows are keyed by their slot in a pool rather than by row number: a scroll
 * of many screens then updates the text and attributes of the same ~40
 * elements instead of removing them all and creating new ones every frame.
 * The pool is a power of two at least as large as the rows on screen, so
 * row r and row r + pool are never on screen together.
 */
function poolSize(onScreen: number): number {
  let n = 32
  while (n < onScreen) n *= 2
  return n
}

/**
 * The run, side by side and aligned: full trajectory left, the attacker's
 * view right, a gap where it saw nothing. Rows have a fixed height, so a
 * 100,000-row run scrolls and jumps exactly with ~30 rows in the DOM; a
 * row's full content opens in the step panel.
 */
export function TrajectoryTable({ replay, selected, annotations, onSelect, handle, echoItems }: Props) {
  const scrollRef = useRef<HTMLDivElement>(null)
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtual = useVirtualizer({
    count: replay.rows,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: replay.rows <= WHOLE_RUN_ROWS ? WHOLE_RUN_ROWS : 3,
    initialOffset: () => Math.max(0, selected * ROW_HEIGHT - 2 * ROW_HEIGHT),
  })
  useImperativeHandle(handle, () => ({ scrollToRow: (row) => virtual.scrollToIndex(row, { align: 'auto' }) }), [virtual])

  return (
    <div className="traj" role="grid" aria-label="Trajectory, full and attacker view" aria-rowcount={replay.rows}>
      <div className="traj__head" role="row">
        <span role="columnheader">#</span>
        <span role="columnheader">Full trajectory (the truth)</span>
        <span role="columnheader">What the attacker saw</span>
      </div>
      <div className="traj__scroll" ref={scrollRef} data-testid="traj-scroll">
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {virtual.getVirtualItems().map((v, _i, items) => {
            const row = v.index
            const full = replay.fullItem(row)
            const seen = replay.attackerItem(row)
            const mark = replay.mark(row)
            const domain = replay.domain(row)
            const index = replay.itemOfRow(row)
            const ann = annotations.get(index)
            const learned = seen === null ? replay.learned(row) : null
            const echo = echoItems?.has(index) ?? false
            return (
              <div
                key={row % poolSize(items.length)}
                role="row"
                aria-rowindex={row + 1}
                aria-selected={row === selected}
                data-row={row}
                data-event={index}
                data-hidden={seen === null ? 'true' : 'false'}
                data-learned={learned ? 'true' : undefined}
                className={`traj__row${row === selected ? ' traj__row--selected' : ''}${seen === null ? ' traj__row--hidden' : ''}`}
                style={{ transform: `translateY(${v.start}px)`, height: ROW_HEIGHT }}
                onClick={() => onSelect(row)}
              >
                <span className="traj__index" role="gridcell">
                  {stepNumber(index) ?? '–'}
                  {ann?.bookmarked && (
                    <span className="traj__bookmark" title="bookmarked" aria-label="bookmarked">
                      ★
                    </span>
                  )}
                  {ann?.note && (
                    <span className="traj__noted" title="has a note" aria-label="has a note">
                      ✎
                    </span>
                  )}
                </span>
                <span role="gridcell" className="traj__side">
                  {full ? (
                    <ItemCell item={full} mark={mark} domain={domain} echo={echo} />
                  ) : (
                    <div className="cell cell--missing">not in the full trajectory</div>
                  )}
                </span>
                <span role="gridcell" className="traj__side">
                  {seen ? <ItemCell item={seen} mark={mark} domain={domain} echo={echo} /> : <GapCell learned={learned} />}
                </span>
              </div>
            )
          })}
        </div>
      </div>
    </div>
  )
}
