import type { DesignTag } from '../../core/model'
import { memoizeOne } from '../../stores/memo'
import { edgesOf } from './forestNodes'
import { layoutTree } from './forestLayout'

/** The tidy-tree layout of the current tags, recomputed only when the tags change (not on a scope click). */
export const layoutOf = memoizeOne((tags: readonly DesignTag[]) => layoutTree(tags))

/** The edges of the current tags: the same array until the tree itself changes. */
export const edgesFor = memoizeOne((tags: readonly DesignTag[]) => edgesOf(tags))
