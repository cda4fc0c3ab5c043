import { chartGeometry, type RunPoint } from '../../../core/replay'
import { plural } from '../../../lib/plural'

interface Props {
  readonly runs: readonly RunPoint[]
  /** Some calls had no price: their dollars are not known, so the chart plots against the run, not a cost. */
  readonly unpriced?: boolean
  readonly onPick?: (run: number) => void
}

const W = 520
const H = 220

/** Score (and success) against cumulative cost across a task's runs, drawn as plain SVG. */
export function CostChart({ runs: given, onPick, unpriced = false }: Props) {
  const runs = unpriced ? given.map((r) => ({ ...r, cumulativeCost: 0 })) : given
  const g = chartGeometry(runs, W, H)
  return (
    <figure className="cost-chart">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        width={W}
        height={H}
        role="img"
        aria-label={`Primary score against ${g.xAxis === 'cost' ? 'cumulative cost' : 'run number'} over ${plural(runs.length, 'run')}`}
      >
        {g.yTicks.map((t) => (
          <g key={`y${t.label}`}>
            <line x1={36} x2={W - 36} y1={t.y} y2={t.y} className="cost-chart__grid" />
            <text x={30} y={t.y + 4} textAnchor="end" className="cost-chart__tick">
              {t.label}
            </text>
          </g>
        ))}
        {g.xTicks.map((t, i) => (
          <text key={`x${i}`} x={t.x} y={H - 18} textAnchor="middle" className="cost-chart__tick">
            {t.label}
          </text>
        ))}
        <text x={W / 2} y={H - 2} textAnchor="middle" className="cost-chart__axis">
          {g.xAxis === 'cost' ? 'cumulative cost (USD)' : unpriced ? 'run (calls unpriced: no cost axis)' : 'run (no run had a cost)'}
        </text>
        <path d={g.bestPath} className="cost-chart__best" />
        {g.points.map((p) => (
          <circle
            key={p.run}
            cx={p.x}
            cy={p.y}
            r={5}
            className={`cost-chart__pt${p.success ? ' cost-chart__pt--success' : ''}${p.evaluated ? '' : ' cost-chart__pt--error'}`}
            onClick={onPick ? () => onPick(p.run) : undefined}
          >
            <title>{`run ${p.run}: score ${p.score}${p.success ? ', success' : ''}, ${unpriced ? 'cost unpriced' : `cumulative $${p.cumulativeCost.toFixed(4)}`}`}</title>
          </circle>
        ))}
      </svg>
      <figcaption>
        <span className="cost-chart__key cost-chart__key--success">●</span> success <span className="cost-chart__key">●</span> no success{' '}
        <span className="cost-chart__key cost-chart__key--best">—</span> best score so far
      </figcaption>
    </figure>
  )
}
