import type { DesignTag } from '../../core/model'
import { canvasViewStore } from '../../stores/canvasViewStore'
import { designerStore } from '../../stores/designerStore'
import { memoizeOne } from '../../stores/memo'
import { selectDoc } from '../../stores/selectors'
import { edgesOf } from './forestNodes'
import { descendantCounts, layoutTree, visibleItems, type Density, type LayoutDirection, type TagBox } from '../../core/layout/forestLayout'

/** The tags on the canvas: all of them but those under a folded tag (same array when nothing is folded). */
export const visibleTagsOf = memoizeOne((tags: readonly DesignTag[], folded: ReadonlySet<string>) => visibleItems(tags, folded))

/** The tidy-tree layout of the tags on the canvas, recomputed only when they or the direction change (not on a scope click). */
export const layoutOf = memoizeOne((tags: readonly DesignTag[], direction: LayoutDirection = 'down', density: Density = 'normal') =>
  layoutTree(tags, direction, density),
)

/** The edges of the tags on the canvas: the same array until the tree itself changes. */
export const edgesFor = memoizeOne((tags: readonly DesignTag[]) => edgesOf(tags))

/** How many tags each tag has under it. */
export const descendantsOf = memoizeOne((tags: readonly DesignTag[]) => descendantCounts(tags))

/** The layout as the canvas draws it right now (folds and direction applied). */
export function currentLayout(): ReadonlyMap<string, TagBox> {
  const view = canvasViewStore.getState()
  return layoutOf(visibleTagsOf(selectDoc(designerStore.getState()).tags, view.folded), view.direction, view.density)
}
