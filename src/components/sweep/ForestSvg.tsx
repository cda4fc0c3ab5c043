import type { ReactNode } from 'react'
import { TAG_NODE_HEIGHT, TAG_NODE_WIDTH, type PositionedTag } from '../../core/layout/forestLayout'
import type { Forest } from '../../core/tags'

type Tag = Forest['tags'][number]

/**
 * A forest drawn read-only as SVG in the designer's layout: the frame and the
 * edges shared by the sweep's and the frontier's paintings; each caller draws
 * its own tag (a `<g>` keyed by the tag's name). Never below 70% of its size:
 * a wide forest scrolls sideways rather than shrinking its labels out of reach.
 */
export function ForestSvg({
  forest,
  pos,
  label,
  maxHeight,
  tag,
}: {
  forest: Forest
  pos: ReadonlyMap<string, PositionedTag>
  label: string
  maxHeight: number
  tag: (t: Tag, at: PositionedTag) => ReactNode
}) {
  const xs = [...pos.values()].map((p) => p.x)
  const ys = [...pos.values()].map((p) => p.y)
  const pad = 16
  const minX = Math.min(...xs) - pad
  const minY = Math.min(...ys) - pad
  const width = Math.max(...xs) + TAG_NODE_WIDTH + pad - minX
  const height = Math.max(...ys) + TAG_NODE_HEIGHT + pad - minY
  return (
    <svg
      viewBox={`${minX} ${minY} ${width} ${height}`}
      role="img"
      aria-label={label}
      style={{ minWidth: width * 0.7, maxHeight: Math.max(Math.min(height, maxHeight), height * 0.7) }}
    >
      {forest.tags
        .filter((t) => t.parent !== null && pos.has(t.parent))
        .map((t) => {
          const a = pos.get(t.parent!)!
          const b = pos.get(t.name)!
          const midY = (a.y + TAG_NODE_HEIGHT + b.y) / 2
          return (
            <path
              key={`e-${t.name}`}
              className="rc-forest__edge"
              d={`M${a.x + TAG_NODE_WIDTH / 2},${a.y + TAG_NODE_HEIGHT} V${midY} H${b.x + TAG_NODE_WIDTH / 2} V${b.y}`}
            />
          )
        })}
      {forest.tags.map((t) => tag(t, pos.get(t.name)!))}
    </svg>
  )
}
