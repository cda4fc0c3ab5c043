import fc from 'fast-check'
import type { Forest } from '../tags'

/** Random forests: each tag's parent is an earlier tag or none. */
export const forestArb = (maxTags = 8): fc.Arbitrary<Forest> =>
  fc.array(fc.nat(), { minLength: 1, maxLength: maxTags }).map((picks) => ({
    tags: picks.map((p, i) => ({ name: `t${i}`, parent: p % (i + 1) === i ? null : `t${p % (i + 1)}`, description: '' })),
  }))
