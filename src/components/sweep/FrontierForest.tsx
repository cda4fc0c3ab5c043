import { paintFrontier } from '../../../core/sweep'
import { PaintedForest } from '../../../components/sweep/PaintedForest'
import type { Forest } from '../../../core/tags'
import type { FrontierPoint } from './frontierRunner'

/**
 * The frontier painted on the forest: per tag, how many of the minimal winning
 * threat models write it and how many only read it (src/core/sweep/paint.ts,
 * as the sweep painting shows a known frontier); or, for one point shown
 * alone, how that threat model holds each tag.
 */
export function FrontierForest({ forest, wins, alone }: { forest: Forest; wins: readonly FrontierPoint[]; alone?: FrontierPoint }) {
  if (forest.tags.length === 0) return null
  const painting = alone
    ? { kind: 'grant' as const, paint: paintFrontier(forest, [alone]), who: `#${alone.index}` }
    : { kind: 'frontier' as const, paint: paintFrontier(forest, wins), source: 'This search' }
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
