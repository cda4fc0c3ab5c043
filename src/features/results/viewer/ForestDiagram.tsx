import { useMemo } from 'react'
import type { Forest } from '../../../core/tags'
import { layoutDiagram } from './diagramLayout'

interface Props {
  readonly forest: Forest | null
  readonly scope: readonly string[]
  readonly readOnly: readonly string[]
  /** Tags the current step involves: its domain and the granted tag covering it. */
  readonly highlight: readonly string[]
  /** The domain's ancestry, drawn as the path between them. */
  readonly path: readonly string[]
}

/** The forest as a small tree, grants coloured, the current step's tags lit up. */
export function ForestDiagram({ forest, scope, readOnly, highlight, path }: Props) {
  const layout = useMemo(() => (forest ? layoutDiagram(forest) : null), [forest])
  const lit = new Set(highlight)
  const onPath = new Set(path)
  const grantOf = (name: string) => (scope.includes(name) ? 'scope' : readOnly.includes(name) ? 'read-only' : 'none')
  if (!layout) {
    return (
      <section className="forest-diagram forest-diagram--names" aria-label="Forest">
        <h3>Forest unknown: names only</h3>
        <ul>
          {[...new Set([...scope, ...readOnly, ...highlight])].map((n) => (
            <li key={n} className={`fd-name fd-name--${grantOf(n)}${lit.has(n) ? ' fd-name--lit' : ''}`}>
              {n} <small>({grantOf(n)})</small>
            </li>
          ))}
        </ul>
      </section>
    )
  }
  return (
    <section className="forest-diagram" aria-label="Forest">
      <h3>Forest</h3>
      <svg viewBox={`0 0 ${layout.width} ${layout.height}`} width="100%" role="img" aria-label="Security-domain forest">
        {layout.links.map((l) => (
          <path
            key={`${l.from}>${l.to}`}
            d={`M${l.x1},${l.y1} C${l.x1},${(l.y1 + l.y2) / 2} ${l.x2},${(l.y1 + l.y2) / 2} ${l.x2},${l.y2}`}
            className={`fd-link${onPath.has(l.to) && onPath.has(l.from) ? ' fd-link--lit' : ''}`}
          />
        ))}
        {layout.nodes.map((n) => (
          <g
            key={n.name}
            transform={`translate(${n.x},${n.y})`}
            className={`fd-node fd-node--${grantOf(n.name)}${lit.has(n.name) ? ' fd-node--lit' : ''}`}
            data-tag={n.name}
            data-lit={lit.has(n.name) ? 'true' : 'false'}
          >
            <rect x={-58} y={-14} width={116} height={28} rx={6} />
            <text textAnchor="middle" y={5}>
              {n.name.length > 16 ? `${n.name.slice(0, 15)}…` : n.name}
            </text>
            <title>{`${n.name} (${grantOf(n.name)})`}</title>
          </g>
        ))}
      </svg>
      <p className="fd-key">
        <span className="fd-key__scope">■</span> scope <span className="fd-key__ro">■</span> read only{' '}
        <span className="fd-key__lit">■</span> this step
      </p>
    </section>
  )
}
