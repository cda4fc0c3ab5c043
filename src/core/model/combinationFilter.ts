/**
 * The distinct combinations (superred's `distinct_combinations()`, reference
 * order) that contain given tags, decoded by index without enumerating. The
 * reference index is a nested mixed-radix number: each root is a digit (the
 * first most significant), and an inner node's digit is either a mixed-radix
 * number over its children or, as its last value, the node itself. Requiring
 * a tag pins its digit to "itself" and its ancestors' digits to "go into the
 * children"; every other root or sibling along the way stays a free digit. The
 * matching combinations are then exactly the mixed-radix numbers over the free
 * digits, in the same relative order.
 */
import { subtreeCounts, type SecurityDomain, type SecurityDomainTag } from '../tags'

export interface CombinationFilter {
  /** How many combinations contain every required tag. */
  count: bigint
  /** The i-th matching combination (0-based) with its index in the full reference list. */
  at(i: bigint): { index: bigint; tags: SecurityDomainTag[] }
}

type Counts = Map<SecurityDomainTag, bigint>

function childProduct(domain: SecurityDomain, counts: Counts, tag: SecurityDomainTag): bigint {
  let n = 1n
  for (const kid of domain.childrenOf(tag)) n *= counts.get(kid)!
  return n
}

/** The tags of `tag`'s subtree chosen by digit `d` (0 = nothing, last = the tag itself). */
function decodeSubtree(domain: SecurityDomain, counts: Counts, tag: SecurityDomainTag, d: bigint, out: SecurityDomainTag[]): void {
  const work: Array<{ tag: SecurityDomainTag; d: bigint }> = [{ tag, d }]
  while (work.length) {
    const { tag: t, d: digit } = work.pop()!
    if (digit === 0n) continue
    const prod = childProduct(domain, counts, t)
    if (digit === prod) {
      out.push(t)
      continue
    }
    const kids = domain.childrenOf(t)
    let rest = digit
    for (let i = kids.length - 1; i >= 0; i--) {
      const radix = counts.get(kids[i])!
      work.push({ tag: kids[i], d: rest % radix })
      rest /= radix
    }
  }
}

export function filterCombinations(
  domain: SecurityDomain,
  required: readonly SecurityDomainTag[],
  counts: Counts = subtreeCounts(domain),
): CombinationFilter {
  const req = new Set(required)
  // Pinned: the required tags and all their ancestors.
  const onPath = new Set<SecurityDomainTag>()
  for (const r of req) for (let n = r.parent; n !== null; n = n.parent) onPath.add(n)
  // A required tag under another required tag cannot be in one antichain.
  const impossible = [...req].some((r) => onPath.has(r))
  if (impossible)
    return {
      count: 0n,
      at: () => {
        throw new RangeError('no combination contains both a tag and its ancestor')
      },
    }

  // Free digits in significance order (a pre-order walk of the pinned paths).
  const free: SecurityDomainTag[] = []
  const visit = (list: readonly SecurityDomainTag[]) => {
    for (const t of list) {
      if (req.has(t)) continue
      if (onPath.has(t)) visit(domain.childrenOf(t))
      else free.push(t)
    }
  }
  visit(domain.roots)
  let count = 1n
  for (const t of free) count *= counts.get(t)!

  const at = (i: bigint) => {
    if (i < 0n || i >= count) throw new RangeError(`index ${i} is outside 0..${count - 1n}`)
    const digit = new Map<SecurityDomainTag, bigint>()
    let rest = i
    for (let k = free.length - 1; k >= 0; k--) {
      const radix = counts.get(free[k])!
      digit.set(free[k], rest % radix)
      rest /= radix
    }
    const tags: SecurityDomainTag[] = []
    // The value of a digit list as a mixed-radix number, assembling the chosen tags on the way.
    const valueOf = (list: readonly SecurityDomainTag[]): bigint => {
      let v = 0n
      for (const t of list) {
        let d: bigint
        if (req.has(t)) {
          d = childProduct(domain, counts, t)
          tags.push(t)
        } else if (onPath.has(t)) {
          d = valueOf(domain.childrenOf(t))
        } else {
          d = digit.get(t)!
          decodeSubtree(domain, counts, t, d, tags)
        }
        v = v * counts.get(t)! + d
      }
      return v
    }
    const index = valueOf(domain.roots)
    return { index, tags }
  }
  return { count, at }
}
