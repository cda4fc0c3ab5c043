import type { Forest } from '../../../core/tags'
import type { FrontierPoint } from './frontierRunner'

/**
 * Per tag: in how many minimal winning threat models it is written, and in how many only read (by name or
 * through an ancestor; a tag written is not also counted as read).
 */
export function winsPerTag(forest: Forest, wins: readonly Pick<FrontierPoint, 'scope' | 'readOnly'>[]): Map<string, { writes: number; reads: number }> {
  const parent = new Map(forest.tags.map((t) => [t.name, t.parent]))
  const grants = (names: readonly string[], tag: string) => {
    for (let n: string | null | undefined = tag; n; n = parent.get(n)) if (names.includes(n)) return true
    return false
  }
  return new Map(forest.tags.map((t) => {
    const writes = wins.filter((w) => grants(w.scope, t.name)).length
    const reads = wins.filter((w) => !grants(w.scope, t.name) && grants(w.readOnly, t.name)).length
    return [t.name, { writes, reads }]
  }))
}
