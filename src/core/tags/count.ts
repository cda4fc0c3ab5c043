import { postOrder } from './postOrder'
import type { SecurityDomain } from './domain'
import type { SecurityDomainTag } from './tag'

/** Per tag, how many antichains its subtree has: leaf 2, inner node Π(children) + 1. */
export function subtreeCounts(domain: SecurityDomain): Map<SecurityDomainTag, bigint> {
  const counts = new Map<SecurityDomainTag, bigint>()
  for (const tag of postOrder(domain, domain.roots)) {
    let n = 1n
    for (const child of domain.childrenOf(tag)) n *= counts.get(child)!
    counts.set(tag, n + 1n)
  }
  return counts
}

/** The exact length of `distinctCombinations(domain)` without enumerating it: Π over roots. */
export function countCombinations(domain: SecurityDomain): bigint {
  const counts = subtreeCounts(domain)
  let n = 1n
  for (const root of domain.roots) n *= counts.get(root)!
  return n
}

/**
 * The combination at `index` in the reference order, decoded as a mixed-radix
 * number (the last root, and within a node the last child, is the fastest
 * digit). Lets a virtualized list show any row of millions without building them.
 */
export function combinationAt(
  domain: SecurityDomain,
  index: bigint,
  counts: Map<SecurityDomainTag, bigint> = subtreeCounts(domain),
): SecurityDomainTag[] {
  let total = 1n
  for (const root of domain.roots) total *= counts.get(root)!
  if (index < 0n || index >= total) throw new RangeError(`combination index ${index} is outside 0..${total - 1n}`)
  const out: SecurityDomainTag[] = []
  const work: Array<{ tags: readonly SecurityDomainTag[]; index: bigint }> = [{ tags: domain.roots, index }]
  while (work.length > 0) {
    const { tags, index: digitsIndex } = work.pop()!
    let rest = digitsIndex
    const digits: bigint[] = new Array(tags.length)
    for (let i = tags.length - 1; i >= 0; i--) {
      const radix = counts.get(tags[i])!
      digits[i] = rest % radix
      rest /= radix
    }
    for (let i = 0; i < tags.length; i++) {
      const tag = tags[i]
      const kids = domain.childrenOf(tag)
      let childProduct = 1n
      for (const kid of kids) childProduct *= counts.get(kid)!
      if (digits[i] === childProduct) out.push(tag)
      else if (digits[i] > 0n) work.push({ tags: kids, index: digits[i] })
    }
  }
  return out
}

/**
 * The inverse of `combinationAt`: the index of a set of tags in the reference
 * order, or null when the set is not one of the distinct combinations (a tag
 * with one of its ancestors, or a tag of another forest). Linear in the
 * forest's size; iterative, so deep chains cannot overflow the stack.
 */
export function combinationIndex(
  domain: SecurityDomain,
  tags: Iterable<SecurityDomainTag>,
  counts: Map<SecurityDomainTag, bigint> = subtreeCounts(domain),
): bigint | null {
  const chosen = new Set<SecurityDomainTag>()
  for (const t of tags) {
    if (domain.get(t.name) !== t) return null
    chosen.add(t)
  }
  // Per tag: its digit, and whether anything in its subtree is chosen.
  const digit = new Map<SecurityDomainTag, bigint>()
  const used = new Set<SecurityDomainTag>()
  for (const tag of postOrder(domain, domain.roots)) {
    const kids = domain.childrenOf(tag)
    let inner = 0n
    let below = false
    for (const kid of kids) {
      inner = inner * counts.get(kid)! + digit.get(kid)!
      if (used.has(kid)) below = true
    }
    if (chosen.has(tag)) {
      if (below) return null
      let product = 1n
      for (const kid of kids) product *= counts.get(kid)!
      digit.set(tag, product)
      used.add(tag)
    } else {
      digit.set(tag, inner)
      if (below) used.add(tag)
    }
  }
  let index = 0n
  for (const root of domain.roots) index = index * counts.get(root)! + digit.get(root)!
  return index
}
