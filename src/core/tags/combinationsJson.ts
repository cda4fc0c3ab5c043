import { CombinationCursor } from './cursor'
import type { SecurityDomain } from './domain'
import { compareNames } from './tag'

/**
 * The distinct combinations as one JSON array of name lists (names sorted
 * inside each, as Python sorts str), in superred's order, produced in chunks
 * of about `chunkChars` characters so that a caller can write them out as
 * they come (the AgentDojo forest alone prints 351,974 lists). The chunks
 * concatenate to `[[],["a"],...]` plus a newline.
 */
export function* combinationsJsonChunks(domain: SecurityDomain, chunkChars = 1 << 16): Generator<string, void, undefined> {
  const cursor = new CombinationCursor(domain)
  const preorder = cursor.preorder
  // Per pre-order position: the name as JSON, and its rank in name order.
  const quoted = preorder.map((t) => JSON.stringify(t.name))
  const rank = new Int32Array(preorder.length)
  ;[...preorder.keys()]
    .sort((a, b) => compareNames(preorder[a].name, preorder[b].name))
    .forEach((v, r) => {
      rank[v] = r
    })
  const sorted = new Int32Array(preorder.length)
  let chunk = '['
  let first = true
  while (cursor.next()) {
    // Insertion sort by name rank: a combination holds a handful of tags.
    const size = cursor.size
    for (let i = 0; i < size; i++) {
      const v = cursor.positionAt(i)
      let j = i
      while (j > 0 && rank[sorted[j - 1]] > rank[v]) {
        sorted[j] = sorted[j - 1]
        j--
      }
      sorted[j] = v
    }
    let line = first ? '[' : ',['
    first = false
    for (let i = 0; i < size; i++) line += i === 0 ? quoted[sorted[i]] : `,${quoted[sorted[i]]}`
    chunk += `${line}]`
    if (chunk.length >= chunkChars) {
      yield chunk
      chunk = ''
    }
  }
  yield `${chunk}]\n`
}
