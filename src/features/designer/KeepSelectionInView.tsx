import { useReactFlow } from '@xyflow/react'
import { useEffect, useRef } from 'react'
import { designerStore, useDesigner } from '../../stores/designerStore'
import { selectTags } from '../../stores/selectors'
import { revealTags } from './revealTag'

/**
 * After an edit relayouts the forest (a drag or the inspector reparents tags, a shortcut moves one, an undo), pans
 * the least amount that brings the selected tags back on screen: the relayout can carry them past an edge of the
 * canvas, where the user would have to look for them. Changes of view (direction, density, folds) are left to the
 * fit that goes with them.
 */
export function KeepSelectionInView(): null {
  const flow = useReactFlow()
  const tags = useDesigner(selectTags)
  const shown = useRef(tags)
  useEffect(() => {
    if (shown.current === tags) return
    shown.current = tags
    const selected = designerStore.getState().selected
    if (selected.length > 0) revealTags(flow, selected)
  }, [tags, flow])
  return null
}
