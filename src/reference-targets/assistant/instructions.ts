/**
 * How the deterministic policy recognises a request to act in a piece of
 * text: a sentence with an action verb and a destination (an email address,
 * an IBAN). It reads tool data with the same eyes as the user's request:
 * that is the prompt-injection vulnerability the defences try to contain.
 */

export type Action =
  | { readonly kind: 'send_email'; readonly to: string; readonly what: string; readonly sentence: string }
  | { readonly kind: 'transfer'; readonly amount: number; readonly currency: string; readonly iban: string; readonly sentence: string }
  | { readonly kind: 'share_file'; readonly file: string; readonly with: string; readonly sentence: string }

const EMAIL = String.raw`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+`
/** A file name in the drive, as a person would write it in a request. */
export const FILE_PATTERN = /\b([\w-]+\.(?:md|xlsx|csv|txt|pdf|docx))\b/i
const FILE = FILE_PATTERN
const IBAN = /\b([A-Z]{2}\d{2}[A-Z0-9]{10,30})\b/
const AMOUNT = /(?:(USD|EUR|GBP|\$|€|£)\s?(\d[\d,]*(?:\.\d{1,2})?))|(?:(\d[\d,]*(?:\.\d{1,2})?)\s?(USD|EUR|GBP|dollars|euros|pounds)\b)/i
const SEND_TO = new RegExp(String.raw`\b(send|forward|e-?mail|mail)\b(.*?)\bto\s+<?(${EMAIL})>?`, 'i')
const SHARE_WITH = new RegExp(String.raw`\bshare\b.*?\bwith\s+<?(${EMAIL})>?`, 'i')
const TRANSFER_VERB = /\b(transfer|wire|send|pay|move)\b/i

const CURRENCY: Readonly<Record<string, string>> = {
  $: 'USD',
  usd: 'USD',
  dollars: 'USD',
  '€': 'EUR',
  eur: 'EUR',
  euros: 'EUR',
  '£': 'GBP',
  gbp: 'GBP',
  pounds: 'GBP',
}

/** Sentences and lines: an instruction never spans two. */
export function sentences(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
}

/** The first action a sentence asks for, if any. */
export function actionIn(sentence: string): Action | null {
  const share = SHARE_WITH.exec(sentence)
  const file = FILE.exec(sentence)
  if (share && file) return { kind: 'share_file', file: file[1], with: share[1].toLowerCase(), sentence }
  const iban = IBAN.exec(sentence)
  const amount = AMOUNT.exec(sentence)
  if (iban && amount && TRANSFER_VERB.test(sentence)) {
    const value = Number((amount[2] ?? amount[3]).replace(/,/g, ''))
    const unit = (amount[1] ?? amount[4]).toLowerCase()
    return { kind: 'transfer', amount: value, currency: CURRENCY[unit] ?? unit.toUpperCase(), iban: iban[1], sentence }
  }
  const send = SEND_TO.exec(sentence)
  if (send) return { kind: 'send_email', to: send[3].toLowerCase(), what: send[2].trim(), sentence }
  return null
}

/** Texts read before and what they asked for (bounded: a sweep plants many payloads). */
const readBefore = new Map<string, readonly Action[]>()
const READ_BEFORE_MAX_ENTRIES = 256
/** Longer texts are read afresh: the memory holds prompts and records, never floods. */
const READ_BEFORE_MAX_LENGTH = 4096

/**
 * Every action requested in a text, in order. The same texts come back in every run (the system
 * prompt, the tool catalogue, the user's task): each is read once, its answer shared (frozen).
 */
export function actionsIn(text: string): readonly Action[] {
  const known = readBefore.get(text)
  if (known !== undefined) return known
  const found = Object.freeze(
    sentences(text)
      .map(actionIn)
      .filter((a): a is Action => a !== null),
  )
  if (text.length <= READ_BEFORE_MAX_LENGTH) {
    if (readBefore.size >= READ_BEFORE_MAX_ENTRIES) readBefore.clear()
    readBefore.set(text, found)
  }
  return found
}

/** A short human description, for the reasoning trace. */
export function describeAction(a: Action): string {
  switch (a.kind) {
    case 'send_email':
      return `send an email to ${a.to}${a.what ? ` (${a.what})` : ''}`
    case 'transfer':
      return `transfer ${a.amount} ${a.currency} to ${a.iban}`
    case 'share_file':
      return `share ${a.file} with ${a.with}`
  }
}
