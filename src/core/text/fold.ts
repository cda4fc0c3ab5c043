/**
 * Text folded for "is this the same text?" comparisons (the echo check, and
 * what the attacker learned through the evaluation's feedback): each
 * character is NFKC-normalised (fullwidth and compatibility forms become
 * their plain letters), lower-cased (Unicode, locale-independent), and every
 * whitespace character (Unicode White_Space, as `\s`) is dropped. So
 * "TIGER-42", "tiger-42", "ＴＩＧＥＲ-42" and "TIGER -\n42" fold alike;
 * "TIGER_42" and "TIGER 42" with a different separator do not ("-" vs "_").
 * Normalised per character (not per string), so a folded text keeps a map
 * back to where each of its code units came from.
 */

const SPACE = /\s/u

/** The folded form of one non-ASCII character (a string: NFKC and lower case can both lengthen it). */
function foldChar(ch: string): string {
  if (SPACE.test(ch)) return ''
  const folded = ch.normalize('NFKC').toLowerCase()
  // NFKC can yield a space (U+00A8 DIAERESIS is a space and a combining mark): dropped as any other.
  return SPACE.test(folded) ? folded.replace(/\s/gu, '') : folded
}

function isAsciiSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13)
}

const NON_ASCII = /[^\p{ASCII}]/u
const ASCII_SPACE = /[\t\n\v\f\r ]+/g

/** The folded text alone (the echo check). Linear in the text. */
export function foldText(text: string): string {
  // ASCII (most texts): NFKC changes nothing, so the engine's own replace and lower case do it all.
  if (!NON_ASCII.test(text)) return text.replace(ASCII_SPACE, '').toLowerCase()
  const parts: string[] = []
  let run = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    // ASCII that folds to itself is copied in runs: most texts are mostly that.
    if (c < 128 && !isAsciiSpace(c) && !(c >= 65 && c <= 90)) continue
    if (run < i) parts.push(text.slice(run, i))
    if (c < 128) {
      if (!isAsciiSpace(c)) parts.push(String.fromCharCode(c + 32))
      run = i + 1
      continue
    }
    const cp = text.codePointAt(i)!
    const width = cp > 0xffff ? 2 : 1
    parts.push(foldChar(text.slice(i, i + width)))
    i += width - 1
    run = i + 1
  }
  if (run < text.length) parts.push(text.slice(run))
  return parts.join('')
}

export interface FoldedText {
  readonly text: string
  /** For each code unit of `text`, the index in the original of the character it came from. */
  readonly origin: Int32Array
}

/** The folded text with a map back to the original (to show which part of an original matched). Linear. */
export function foldWithOrigin(text: string): FoldedText {
  const parts: string[] = []
  // NFKC can lengthen a character many times over (U+FDFA gives 18): a list that grows, not a guessed size.
  const origin: number[] = []
  const put = (piece: string, from: number) => {
    parts.push(piece)
    for (let k = 0; k < piece.length; k++) origin.push(from)
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 128) {
      if (!isAsciiSpace(c)) put(c >= 65 && c <= 90 ? String.fromCharCode(c + 32) : text[i], i)
      continue
    }
    const cp = text.codePointAt(i)!
    const width = cp > 0xffff ? 2 : 1
    put(foldChar(text.slice(i, i + width)), i)
    i += width - 1
  }
  return { text: parts.join(''), origin: Int32Array.from(origin) }
}
