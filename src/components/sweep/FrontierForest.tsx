import { paintFrontier, type GrantNames } from '../../core/sweep'
import type { Forest } from '../../core/tags'
import { PaintedForest } from './PaintedForest'

/** A threat model on the frontier: its grant and its number among the forest's combinations. */
export interface NumberedGrant extends GrantNames {
  readonly index: string
}

/**
 * The frontier painted on the forest: per tag, how many of the minimal winning
 * threat models write it and how many only read it (src/core/sweep/paint.ts,
 * as the sweep painting shows a known frontier); or, for one point shown
 * alone, how that threat model holds each tag. The Run page's live search and
 * the viewer's frontier.json paint the same way.
 */
export function FrontierForest({
  forest,
  wins,
  alone,
  source,
}: {
  forest: Forest
  wins: readonly GrantNames[]
  alone?: NumberedGrant | null
  /** Where the answer comes from, said under the painting. */
  source: string
}) {
  if (forest.tags.length === 0) return null
  const painting = alone
    ? { kind: 'grant' as const, paint: paintFrontier(forest, [alone]), who: `#${alone.index}` }
    : { kind: 'frontier' as const, paint: paintFrontier(forest, wins), source }
  return (
    <PaintedForest
      forest={forest}
      painting={painting}
      testId="frontier-tag"
      maxHeight={420}
      label={alone ? `Forest painted with threat model #${alone.index}` : 'Forest painted with the minimal winning threat models'}
    />
  )
}
