/**
 * Substring questions answered in time linear in the texts, whatever they
 * hold (texts here are the attacker's injections and the target's answers:
 * adversarial, and possibly long). No regular expression is built from them.
 */

/** Knuth-Morris-Pratt: does `haystack` contain `needle`? O(|haystack| + |needle|) in the worst case. */
export function containsText(haystack: string, needle: string): boolean {
  const m = needle.length
  if (m === 0) return true
  if (m > haystack.length) return false
  const fail = new Int32Array(m)
  for (let i = 1, k = 0; i < m; i++) {
    while (k > 0 && needle.charCodeAt(i) !== needle.charCodeAt(k)) k = fail[k - 1]
    if (needle.charCodeAt(i) === needle.charCodeAt(k)) k++
    fail[i] = k
  }
  for (let i = 0, k = 0; i < haystack.length; i++) {
    const c = haystack.charCodeAt(i)
    while (k > 0 && c !== needle.charCodeAt(k)) k = fail[k - 1]
    if (c === needle.charCodeAt(k)) k++
    if (k === m) return true
  }
  return false
}

/** The longest piece of a text that also occurs in the indexed one: its length and where it ends in the text. */
export interface CommonPiece {
  readonly length: number
  /** Index just past the piece's last code unit in the searched text (0 when length is 0). */
  readonly end: number
}

/**
 * Every substring of one text (a suffix automaton, built in time linear in
 * it): then for any other text, the longest piece the two share is found in
 * time linear in that text. For "which of these hidden answers does the
 * rationale quote, even in part?", one index of the rationale serves every
 * answer.
 */
export class SubstringIndex {
  private readonly len: number[] = [0]
  private readonly link: number[] = [-1]
  private readonly next: Array<Map<number, number>> = [new Map()]

  constructor(text: string) {
    let last = 0
    for (let i = 0; i < text.length; i++) last = this.extend(last, text.charCodeAt(i))
  }

  private extend(last: number, c: number): number {
    const { len, link, next } = this
    const cur = len.length
    len.push(len[last] + 1)
    link.push(0)
    next.push(new Map())
    let p = last
    while (p !== -1 && !next[p].has(c)) {
      next[p].set(c, cur)
      p = link[p]
    }
    if (p === -1) return cur
    const q = next[p].get(c)!
    if (len[p] + 1 === len[q]) {
      link[cur] = q
      return cur
    }
    const clone = len.length
    len.push(len[p] + 1)
    link.push(link[q])
    next.push(new Map(next[q]))
    while (p !== -1 && next[p].get(c) === q) {
      next[p].set(c, clone)
      p = link[p]
    }
    link[q] = clone
    link[cur] = clone
    return cur
  }

  /** The longest piece of `text` that occurs in the indexed text (the first such piece, left to right). */
  longestCommon(text: string): CommonPiece {
    const { len, link, next } = this
    let state = 0
    let length = 0
    let best = 0
    let end = 0
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i)
      let to = next[state].get(c)
      while (to === undefined && state !== 0) {
        state = link[state]
        length = len[state]
        to = next[state].get(c)
      }
      if (to === undefined) {
        state = 0
        length = 0
      } else {
        state = to
        length++
      }
      if (length > best) {
        best = length
        end = i + 1
      }
    }
    return { length: best, end }
  }
}
