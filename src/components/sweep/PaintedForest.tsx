import { CHANGE_LEGEND, changeFill, changeWords, type ChangeTagPaint } from '../../core/compare'
import { layoutForest, TAG_NODE_HEIGHT, TAG_NODE_WIDTH } from '../../core/layout/forestLayout'
import {
  contrastFill,
  contrastWords,
  CONTRAST_LEGEND,
  frontierFill,
  FRONTIER_LEGEND,
  frontierWords,
  type FrontierTagPaint,
  type TagPaint,
  type TagPaintWords,
} from '../../core/sweep'
import type { Forest } from '../../core/tags'
import { ForestSvg } from './ForestSvg'

/**
 * What a painted forest shows per tag (src/core/sweep/paint.ts):
 * - contrast: the ASR of the threat models that grant the tag against those that do not;
 * - frontier: how the minimal winning threat models of a frontier search hold it;
 * - grant: how one threat model (a point of the frontier, shown alone) holds it;
 * - change: how the threat models that grant it changed between two results (src/core/compare/paint.ts).
 */
export type Painting =
  | { readonly kind: 'contrast'; readonly paint: ReadonlyMap<string, TagPaint> }
  | { readonly kind: 'frontier'; readonly paint: ReadonlyMap<string, FrontierTagPaint>; readonly source: string }
  | { readonly kind: 'grant'; readonly paint: ReadonlyMap<string, FrontierTagPaint>; readonly who: string }
  | { readonly kind: 'change'; readonly paint: ReadonlyMap<string, ChangeTagPaint> }

const GRANT_LEGEND = [
  { fill: FRONTIER_LEGEND[0].fill, words: 'read & write' },
  { fill: FRONTIER_LEGEND[1].fill, words: 'read only' },
  { fill: FRONTIER_LEGEND[2].fill, words: 'not granted' },
]

function grantWords(p: FrontierTagPaint, who: string): TagPaintWords {
  const line = p.role === 'written' ? `written by ${who}` : p.role === 'read' ? `read only by ${who}` : `not granted by ${who}`
  return { lines: [line], title: `${line}.` }
}

function tagOf(painting: Painting, name: string): { fill: string; words: TagPaintWords; data: Record<string, string | number> } | null {
  if (painting.kind === 'contrast') {
    const p = painting.paint.get(name)
    if (!p) return null
    return {
      fill: contrastFill(p),
      words: contrastWords(p),
      data: {
        'data-effect': p.effect,
        'data-with': `${p.with.successes}/${p.with.completed}`,
        'data-without': `${p.without.successes}/${p.without.completed}`,
      },
    }
  }
  if (painting.kind === 'change') {
    const p = painting.paint.get(name)
    if (!p) return null
    return {
      fill: changeFill(p),
      words: changeWords(p),
      data: { 'data-change': p.change, 'data-regressed': p.regressed, 'data-fixed': p.fixed, 'data-models': p.models },
    }
  }
  const p = painting.paint.get(name)
  if (!p) return null
  return {
    fill: frontierFill(p),
    words: painting.kind === 'frontier' ? frontierWords(p) : grantWords(p, painting.who),
    data: { 'data-role': p.role, 'data-wins': p.writes + p.reads, 'data-writes': p.writes, 'data-reads': p.reads },
  }
}

const FIGURES: Record<Painting['kind'], string> = {
  contrast: 'What each tag contributes',
  frontier: 'The frontier on the forest',
  grant: 'One threat model on the forest',
  change: 'What changed on the forest',
}

const CAPTIONS: Record<Painting['kind'], string> = {
  contrast:
    'Per tag: the ASR of the threat models whose scope or read-only covers it (granting a tag covers its subtree) against the ASR of those whose grant does not; ' +
    'each is successful / completed tasks with its 95% Wilson interval. A tag is red only when the 95% interval of the difference lies above zero.',
  frontier:
    'Per tag: how the minimal winning threat models hold it (granting a tag covers its subtree). A tag no minimal winner needs may still be granted by winners: it is not what makes them win.',
  grant: 'Per tag: how this threat model holds it (granting a tag covers its subtree).',
  change:
    'Per tag: how the threat models whose scope or read-only covers it (granting a tag covers its subtree) changed from BASE to HEAD. ' +
    'It shows where the changes are, not which tag caused them: a tag every threat model grants carries every regression.',
}

/**
 * A forest painted with a sweep's or a frontier's results: the designer's own
 * layout drawn read-only as SVG text, each tag with its fill and words (the
 * core's, so reports say the same), the longer words in its tooltip, and a
 * legend that says what each colour means.
 */
export function PaintedForest({
  forest,
  painting,
  testId,
  label,
  maxHeight = 520,
}: {
  forest: Forest
  painting: Painting
  /** The test id of each tag's group. */
  testId: string
  label: string
  maxHeight?: number
}) {
  const pos = layoutForest(forest)
  if (pos.size === 0) return <p className="rc-muted">The forest is empty.</p>
  const legend =
    painting.kind === 'contrast'
      ? CONTRAST_LEGEND
      : painting.kind === 'frontier'
        ? FRONTIER_LEGEND
        : painting.kind === 'change'
          ? CHANGE_LEGEND
          : GRANT_LEGEND
  return (
    <figure className="rc-forest" aria-label={FIGURES[painting.kind]} data-painting={painting.kind}>
      <div className="rc-forest__scroll">
        <ForestSvg
          forest={forest}
          pos={pos}
          label={label}
          maxHeight={maxHeight}
          tag={(t, at) => {
            const shown = tagOf(painting, t.name)
            const lines = shown?.words.lines ?? ['no results']
            return (
              <g key={t.name} transform={`translate(${at.x},${at.y})`} data-testid={testId} data-tag={t.name} {...shown?.data}>
                <title>{`${t.name}: ${shown?.words.title ?? 'no results'}`}</title>
                <rect
                  width={TAG_NODE_WIDTH}
                  height={TAG_NODE_HEIGHT}
                  rx={10}
                  fill={shown?.fill ?? '#e9ecef'}
                  className={`rc-forest__node${shown?.data['data-role'] === 'read' ? ' rc-forest__node--read' : ''}${shown?.data['data-change'] === 'one-side' ? ' rc-forest__node--one-side' : ''}`}
                />
                <text x={12} y={24} className="rc-forest__name">
                  {t.name}
                </text>
                {lines.map((line, i) => (
                  <text key={i} x={12} y={44 + 16 * i} className={i === 2 ? 'rc-forest__effect' : 'rc-forest__sub'} data-line={i}>
                    {line}
                  </text>
                ))}
              </g>
            )
          }}
        />
      </div>
      <figcaption className="rc-hint">
        <ul className="rc-paint-legend" aria-label="What the colours mean">
          {legend.map((l) => (
            <li key={l.words}>
              <span className="rc-paint-legend__swatch" style={{ background: l.fill }} aria-hidden="true" /> {l.words}
            </li>
          ))}
        </ul>
        {painting.kind === 'frontier' ? `${painting.source}. ` : ''}
        {CAPTIONS[painting.kind]}
      </figcaption>
    </figure>
  )
}
