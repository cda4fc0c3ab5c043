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
