import { layoutForest, TAG_NODE_HEIGHT, TAG_NODE_WIDTH } from '../../../core/layout/forestLayout'
import { ForestSvg } from '../../../components/sweep/ForestSvg'
import type { Forest } from '../../../core/tags'
import type { FrontierPoint } from './frontierRunner'
import { winsPerTag } from './frontierPaint'

/**
 * The frontier painted on the forest (the designer's layout, read-only SVG
 * text): a tag written by a minimal winning attacker is red, the deeper the
 * more of them write it; a tag some only read gets the designer's read-only
 * mark (blue dashed border); the rest stay pale. Names are text, never markup.
 */
export function FrontierForest({ forest, wins }: { forest: Forest; wins: readonly FrontierPoint[] }) {
  const pos = layoutForest(forest)
  if (pos.size === 0) return null
  const per = winsPerTag(forest, wins)
  const fill = (n: number) => (n === 0 ? '#f1f3f5' : `rgb(250, ${Math.round(200 - 118 * (n / Math.max(1, wins.length)))}, ${Math.round(205 - 85 * (n / Math.max(1, wins.length)))})`)
  return (
    <figure className="rc-forest" aria-label="The frontier on the forest">
      <div className="rc-forest__scroll">
        <ForestSvg forest={forest} pos={pos} label="Forest painted with the minimal winning threat models" maxHeight={420} tag={(t, p) => {
          const { writes: n, reads: r } = per.get(t.name) ?? { writes: 0, reads: 0 }
          const rate = n === 0 && r === 0 ? 'not needed' : [n > 0 ? `${n} write${n === 1 ? 's' : ''}` : '', r > 0 ? `${r} read${r === 1 ? 's' : ''} only` : ''].filter(Boolean).join(', ')
          const sub = n > 0 ? 'written by a minimal winner' : r > 0 ? 'read only by a minimal winner' : 'held by no minimal winner'
          return (
            <g key={t.name} transform={`translate(${p.x},${p.y})`} data-testid="frontier-tag" data-tag={t.name} data-wins={n + r} data-writes={n} data-reads={r}>
              <rect width={TAG_NODE_WIDTH} height={TAG_NODE_HEIGHT} rx={10} fill={n === 0 && r > 0 ? '#e7f5ff' : fill(n)} className="rc-forest__node"
                {...(r > 0 ? { stroke: '#1c7ed6', strokeWidth: 2, strokeDasharray: '6 4' } : {})} />
              <text x={12} y={26} className="rc-forest__name">{t.name}</text>
              <text x={12} y={52} className="rc-forest__rate">{rate}</text>
              <text x={12} y={70} className="rc-forest__sub">{sub}</text>
            </g>
          )
        }} />
      </div>
      <figcaption className="rc-hint">Per tag: how many of the minimal winning threat models write it (red) and how many only read it (dashed blue); granting a tag covers its subtree.</figcaption>
    </figure>
  )
}
