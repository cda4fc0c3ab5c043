import { layoutForest, TAG_NODE_HEIGHT, TAG_NODE_WIDTH } from '../../designer/forestLayout'
import { ForestSvg } from './ForestSvg'
import type { Forest } from '../../../core/tags'
import type { FrontierPoint } from './frontierRunner'

/** Per tag: in how many minimal winning threat models it is granted (by name or through an ancestor). */
function winsPerTag(forest: Forest, wins: readonly FrontierPoint[]): Map<string, number> {
  const parent = new Map(forest.tags.map((t) => [t.name, t.parent]))
  const grants = (scope: readonly string[], tag: string) => {
    for (let n: string | null | undefined = tag; n; n = parent.get(n)) if (scope.includes(n)) return true
    return false
  }
  return new Map(forest.tags.map((t) => [t.name, wins.filter((w) => grants(w.scope, t.name)).length]))
}

/**
 * The frontier painted on the forest (the designer's layout, read-only SVG
 * text): a tag held by a minimal winning attacker is red, the deeper the more
 * of them hold it; the rest stay pale. Names are text, never markup.
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
          const n = per.get(t.name) ?? 0
          return (
            <g key={t.name} transform={`translate(${p.x},${p.y})`} data-testid="frontier-tag" data-tag={t.name} data-wins={n}>
              <rect width={TAG_NODE_WIDTH} height={TAG_NODE_HEIGHT} rx={10} fill={fill(n)} className="rc-forest__node" />
              <text x={12} y={26} className="rc-forest__name">{t.name}</text>
              <text x={12} y={52} className="rc-forest__rate">{n === 0 ? 'not needed' : `${n} weakest win${n === 1 ? '' : 's'}`}</text>
              <text x={12} y={70} className="rc-forest__sub">{n === 0 ? 'held by no minimal winner' : 'granted to a minimal winner'}</text>
            </g>
          )
        }} />
      </div>
      <figcaption className="rc-hint">Per tag: how many of the minimal winning threat models grant it (granting a tag covers its subtree).</figcaption>
    </figure>
  )
}
