import { BaseEdge, getSmoothStepPath, type EdgeProps } from '@xyflow/react'
import { memo } from 'react'
import type { TagId } from '../../core/model'
import { useDesigner } from '../../stores/designerStore'
import { coverageFor } from '../../stores/selectors'

/**
 * A parent → child edge. It reads the coverage of its two ends itself, so a
 * scope click re-renders only the edges whose colour changes and the edge
 * list handed to React Flow stays the same object (no O(edges) rebuild).
 */
function TagEdgeView(props: EdgeProps) {
  const eff = useDesigner((s) => {
    const a = coverageFor(s.history.present, props.source as TagId)?.effective ?? 'none'
    const b = coverageFor(s.history.present, props.target as TagId)?.effective ?? 'none'
    return a === b ? a : 'none'
  })
  const [path] = getSmoothStepPath({
    sourceX: props.sourceX,
    sourceY: props.sourceY,
    sourcePosition: props.sourcePosition,
    targetX: props.targetX,
    targetY: props.targetY,
    targetPosition: props.targetPosition,
  })
  return <BaseEdge path={path} className={`tag-edge-path eff-${eff}`} interactionWidth={0} />
}

export const TagEdge = memo(TagEdgeView)
