/**
 * What the attacker learned through the evaluation's feedback. superred hides
 * an item from the attacker by its domain, but the RunEndEvent it receives
 * carries the evaluation's rationale and the sub-scores that pass the filter,
 * never filtered by content: a rationale such as "Secret not found in
 * response: <the whole answer>" hands the hidden answer over. This finds, for
 * each item hidden from the attacker, whether its text (an observation's
 * content, a call's request or answer) appears in that feedback, whole or in
 * part, so the viewer, the presenter and the exports say "seen via the
 * evaluation's rationale" instead of "hidden".
 *
 * Texts are compared folded (src/core/text: case, whitespace and compatibility
 * forms ignored). A hidden text counts as seen when all of it appears (if it
 * has at least MIN_WHOLE folded characters) or a piece of at least MIN_PIECE
 * folded characters does: shorter coincidences ("ok", "the user") say nothing.
 * A piece the attacker already had (in its own injections or what it saw during
 * the run: a reply that repeats its injection, quoted back) is nothing learned.
 * One substring index per feedback text, walked once per hidden text: linear
 * in the feedback and in the hidden content; a candidate piece is looked up in
 * what the attacker had with KMP (linear in that).
 */
import { containsText, foldText, foldWithOrigin, SubstringIndex } from '../text'
import type { PersistedItemLike } from './items'

/** A hidden text this short is counted only when the feedback holds all of it. */
export const MIN_WHOLE = 4
/** A piece of a hidden text this long (folded) in the feedback counts as seen. */
export const MIN_PIECE = 16
/** Feedback beyond this many folded characters is not indexed (a rationale is rarely a tenth of it). */
export const MAX_FEEDBACK = 200_000

export interface Learned {
  /** Where it reached the attacker, in words: "the evaluation's rationale", "the name of sub-score \"leak\"". */
  readonly via: string
  /** The item's field whose text it was: content, request or answer. */
  readonly field: string
  /** All of the field, or a piece of it. */
  readonly whole: boolean
  /** The piece, as the item has it (cut to 200 characters for display). */
  readonly piece: string
  /** Characters of the piece and of the whole field, in the original text. */
  readonly pieceChars: number
  readonly fieldChars: number
}

interface Feedback {
  readonly via: string
  readonly index: SubstringIndex
}

type Rec = Record<string, unknown>

/** The evaluation the attacker received at the end of the run: the last RunEndEvent of its view. */
function receivedEvaluation(attackerItems: readonly PersistedItemLike[]): Rec | null {
  for (let i = attackerItems.length - 1; i >= 0; i--) {
    const it = attackerItems[i] as unknown as Rec
    if (it.type === 'RunEndEvent') return (it.evaluation as Rec | null | undefined) ?? null
  }
  return null
}

function feedbackOf(evaluation: Rec): Feedback[] {
  const out: Feedback[] = []
  const add = (via: string, text: unknown) => {
    if (typeof text !== 'string') return
    const folded = foldText(text).slice(0, MAX_FEEDBACK)
    if (folded.length >= MIN_WHOLE) out.push({ via, index: new SubstringIndex(folded) })
  }
  add("the evaluation's rationale", evaluation.rationale)
  const subs = evaluation.sub_scores
  if (subs !== null && typeof subs === 'object') {
    for (const [key, s] of Object.entries(subs as Record<string, unknown>)) {
      add(`the name of sub-score "${key}"`, key)
      const name = (s as Rec | null)?.name
      if (typeof name === 'string' && name !== key) add(`the name of sub-score "${key}"`, name)
    }
  }
  return out
}

/** The texts of an item that a target produced or was asked: what could be quoted back. */
function textsOf(item: PersistedItemLike): Array<{ field: string; text: string }> {
  const rec = item as unknown as Rec
  const out: Array<{ field: string; text: string }> = []
  const add = (field: string, v: unknown) => {
    if (v === undefined || v === null) return
    const text = typeof v === 'string' ? v : JSON.stringify(v)
    if (typeof text === 'string' && text !== '') out.push({ field, text })
  }
  if (item.type === 'ObservableEvent') add('content', rec.content)
  else if (item.type === 'ControllablePreCallEvent') add('request', rec.request)
  else if (item.type === 'ControllablePostCallEvent') {
    add('request', rec.request)
    add('answer', rec.answer)
  } else if (item.type === 'ControllableInjection') add('value', rec.value)
  return out
}

function originalPiece(text: string, origin: Int32Array, start: number, end: number): string {
  const from = origin[start]
  const last = origin[end - 1]
  const width = (text.codePointAt(last) ?? 0) > 0xffff ? 2 : 1
  return text.slice(from, last + width)
}

/**
 * For each full-trajectory index in `hidden`, what of it the attacker received through the feedback of
 * `attackerItems`' RunEndEvent (the best match over its fields and the feedback's texts); absent when nothing.
 */
export function learnedThroughFeedback(
  items: readonly PersistedItemLike[],
  attackerItems: readonly PersistedItemLike[],
  hidden: Iterable<number>,
): Map<number, Learned> {
  const found = new Map<number, Learned>()
  const evaluation = receivedEvaluation(attackerItems)
  if (evaluation === null) return found
  const feedback = feedbackOf(evaluation)
  if (feedback.length === 0) return found
  // What the attacker had without the feedback, folded; '\n' joins the texts (folding drops every whitespace, so no
  // piece can span two of them). Made only when a candidate needs it.
  let had: string | null = null
  const alreadyHad = (piece: string) => {
    had ??= attackerItems.flatMap((item) => (item.type === 'RunEndEvent' ? [] : textsOf(item).map((t) => foldText(t.text)))).join('\n')
    return containsText(had, piece)
  }
  for (const i of hidden) {
    let best: Learned | null = null
    let bestLength = 0
    for (const { field, text } of textsOf(items[i])) {
      // Folded plainly first (most hidden texts share nothing with the feedback); mapped back only for a hit.
      const folded = foldText(text)
      const n = folded.length
      if (n < MIN_WHOLE) continue
      let origin: Int32Array | null = null
      for (const f of feedback) {
        const hit = f.index.longestCommon(folded)
        const whole = hit.length === n
        if (!(whole || hit.length >= MIN_PIECE) || hit.length <= bestLength) continue
        if (alreadyHad(folded.slice(hit.end - hit.length, hit.end))) continue
        bestLength = hit.length
        origin ??= foldWithOrigin(text).origin
        const piece = originalPiece(text, origin, hit.end - hit.length, hit.end)
        best = {
          via: f.via,
          field,
          whole,
          piece: piece.length > 200 ? `${piece.slice(0, 200)}…` : piece,
          pieceChars: whole ? text.length : piece.length,
          fieldChars: text.length,
        }
      }
    }
    if (best !== null) found.set(i, best)
  }
  return found
}

/** "via the evaluation's rationale (all of its content)" / "(a piece of its answer: 160 of 412 characters)". */
export function learnedWords(l: Learned): string {
  return `via ${l.via} (${l.whole ? `all of its ${l.field}` : `a piece of its ${l.field}: ${l.pieceChars.toLocaleString('en-US')} of ${l.fieldChars.toLocaleString('en-US')} characters`})`
}
