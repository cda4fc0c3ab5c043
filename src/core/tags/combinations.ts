import { CombinationCursor } from './cursor'
import type { SecurityDomain } from './domain'
import type { SecurityDomainTag } from './tag'

export { postOrder } from './postOrder'

type Antichain = readonly SecurityDomainTag[]

/**
 * Every antichain of the forest, in superred's exact order: the empty set
 * first, a node's own singleton after all the combinations of its children,
 * and across roots a Cartesian product in which the last root varies fastest.
 * Materialises the whole list, as the reference does; walk a
 * `CombinationCursor` to visit them without building them, or use
 * `countCombinations` / `combinationAt` when only a count or one is needed.
 */
export function distinctCombinations(domain: SecurityDomain): Antichain[] {
  const out: Antichain[] = []
  const cursor = new CombinationCursor(domain)
  while (cursor.next()) out.push(cursor.tags())
  return out
}
