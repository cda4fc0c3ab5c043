import { useMemo } from 'react'
import { BIN, markBins, stepNumber, type Replay } from '../../../core/replay'

interface Props {
  readonly replay: Replay
  readonly row: number
  readonly onSeek: (row: number) => void
}

const BINS = 400

/** A slider over the whole run, above a strip that shows where injections, declines and gaps are. */
export function Scrubber({ replay, row, onSeek }: Props) {
  const bins = useMemo(() => markBins(replay, BINS), [replay])
  const w = 1000 / bins.length
  return (
    <div className="scrubber">
      <svg
        className="scrubber__strip"
        viewBox={`0 0 1000 12`}
        preserveAspectRatio="none"
        aria-hidden="true"
        onClick={(e) => {
          const box = e.currentTarget.getBoundingClientRect()
          onSeek(Math.min(replay.rows - 1, Math.floor(((e.clientX - box.left) / box.width) * replay.rows)))
        }}
      >
        {Array.from(bins, (bits, i) => {
          const cls =
            bits & BIN.injection
              ? 'inj'
              : bits & BIN.declinedOptimizer
                ? 'dop'
                : bits & BIN.readOnly
                  ? 'ro'
                  : bits & BIN.declinedScope
                    ? 'dsc'
                    : bits & BIN.runEnd
                      ? 'end'
                      : null
          return (
            <g key={i}>
              {bits & BIN.hidden ? <rect x={i * w} y={8} width={w} height={4} className="scrubber__hidden" /> : null}
              {cls && <rect x={i * w} y={0} width={w} height={7} className={`scrubber__${cls}`} />}
            </g>
          )
        })}
      </svg>
      <input
        type="range"
        className="scrubber__range"
        min={0}
        max={Math.max(0, replay.rows - 1)}
        value={row}
        aria-label="Position in the run"
        aria-valuetext={`step ${stepNumber(replay.itemOfRow(row)) ?? '(attacker only)'} of ${replay.items.length}`}
        onChange={(e) => onSeek(Number(e.target.value))}
      />
    </div>
  )
}
