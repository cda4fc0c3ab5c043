import { layoutForest, TAG_NODE_HEIGHT, TAG_NODE_WIDTH } from '../../core/layout/forestLayout'
import type { TagPaint } from '../../core/sweep'
import type { Forest } from '../../core/tags'
import { pct } from '../../lib/format'
import { rateColour } from './colours'
import { ForestSvg } from './ForestSvg'

/**
 * The sweep's results painted back on the forest: the designer's own layout
 * (its tidy tree), drawn read-only as SVG text, each tag with the pooled
 * success rate of the threat models that grant it.
 */
export function SweepForest({ forest, paint }: { forest: Forest; paint: ReadonlyMap<string, TagPaint> }) {
  const pos = layoutForest(forest)
  if (pos.size === 0) return <p className="rc-muted">The forest is empty.</p>
  return (
    <figure className="rc-forest" aria-label="Success rate per tag">
      <div className="rc-forest__scroll">
        <ForestSvg forest={forest} pos={pos} label="Forest painted with success rates" maxHeight={520} tag={(t, p) => {
          const paintOf = paint.get(t.name)
          const rate = paintOf?.rate ?? null
          return (
            <g key={t.name} transform={`translate(${p.x},${p.y})`} data-testid="forest-tag" data-tag={t.name} data-rate={rate === null ? '' : rate.toFixed(4)}>
              <rect width={TAG_NODE_WIDTH} height={TAG_NODE_HEIGHT} rx={10} fill={rateColour(rate)} className="rc-forest__node" />
              <text x={12} y={26} className="rc-forest__name">{t.name}</text>
              <text x={12} y={52} className="rc-forest__rate">{rate === null ? 'no results' : `${pct(rate)} success`}</text>
              <text x={12} y={70} className="rc-forest__sub">{paintOf && paintOf.models ? `${paintOf.broken}/${paintOf.models} threat models broke it` : 'not granted by any'}</text>
            </g>
          )
        }} />
      </div>
      <figcaption className="rc-hint rc-row">
        <span className="rc-scale" aria-hidden="true"><span>0%</span><span className="rc-scale__bar" style={{ background: `linear-gradient(90deg, ${[0, 0.05, 0.25, 0.5, 1].map(rateColour).join(', ')})` }} /><span>100%</span></span>
        Per tag: successful tasks / completed tasks over the threat models whose scope or read-only covers it (granting a tag covers its subtree).
      </figcaption>
    </figure>
  )
}
