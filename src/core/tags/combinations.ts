import type { SecurityDomain } from './domain'
import type { SecurityDomainTag } from './tag'

/**
 * A node's subtree visited children-first, so that every node comes after all
 * of its descendants. Iterative, because a chain of 10,000 tags would overflow
 * the call stack if walked recursively.
 */
export function postOrder(domain: SecurityDomain, roots: readonly SecurityDomainTag[]): SecurityDomainTag[] {
  const out: SecurityDomainTag[] = []
  const stack: Array<{ tag: SecurityDomainTag; expanded: boolean }> = []
  for (let i = roots.length - 1; i >= 0; i--) stack.push({ tag: roots[i], expanded: false })
  while (stack.length > 0) {
    const top = stack.pop()!
    if (top.expanded) {
      out.push(top.tag)
      continue
    }
    stack.push({ tag: top.tag, expanded: true })
    const kids = domain.childrenOf(top.tag)
    for (let i = kids.length - 1; i >= 0; i--) stack.push({ tag: kids[i], expanded: false })
  }
  return out
}

type Antichain = readonly SecurityDomainTag[]

/** `[e ∪ n for e in existing for n in next]`: existing-major, so `next` varies fastest. */
function product(existing: readonly Antichain[], next: readonly Antichain[]): Antichain[] {
  // The common first step (acc = [∅]) is the identity: skip the per-element work.
  if (existing.length === 1 && existing[0].length === 0) return [...next]
  const out: Antichain[] = new Array(existing.length * next.length)
  let k = 0
  for (const e of existing) {
    for (const n of next) out[k++] = n.length === 0 ? e : e.length === 0 ? n : [...e, ...n]
  }
  return out
}

/**
 * Every antichain of the forest, in superred's exact order: the empty set
 * first, a node's own singleton after all the combinations of its children,
 * and across roots a Cartesian product in which the last root varies fastest.
 * Materialises the whole list, as the reference does; use `countCombinations`
 * or `combinationAt` when only a count or one element is needed.
 */
export function distinctCombinations(domain: SecurityDomain): Antichain[] {
  const perNode = new Map<SecurityDomainTag, Antichain[]>()
  for (const tag of postOrder(domain, domain.roots)) {
    let acc: Antichain[] = [[]]
    for (const child of domain.childrenOf(tag)) {
      acc = product(acc, perNode.get(child)!)
      perNode.delete(child)
    }
    acc.push([tag])
    perNode.set(tag, acc)
  }
  let result: Antichain[] = [[]]
  for (const root of domain.roots) result = product(result, perNode.get(root)!)
  return result
}
