/**
 * The assistant's defences against instructions hidden in tool data, weakest
 * first. Each is realistic, and each has the hole real ones have had:
 *
 * - `none`: tool output is pasted into the context; instructions in it are followed.
 * - `delimiters`: tool output goes inside `<data>…</data>` and the assistant
 *   ignores instructions inside. Hole: the attacker's text can close the
 *   block itself (`</data>`), and what follows reads as outside the data.
 * - `keyword_filter`: delimiters, plus records containing known injection
 *   phrases (or the literal `</data>`) are dropped. Hole: the filter matches
 *   exact text while the assistant's tag reading is lenient, so `</data >`
 *   slips past the filter and still closes the block.
 * - `strict_filter`: the filter normalises text first (case, Unicode forms,
 *   all whitespace), quarantines any untrusted record that asks for an
 *   action, and executes requests from trusted contacts as if the user made
 *   them. Hole: the sender of a record is whatever its `From:` header says;
 *   nothing authenticates it, so a spoofed sender gets its request executed.
 */
import { actionsIn, describeAction } from './instructions'
import { BASE_RECORDS, TRUSTED_CONTACTS, type Store, type StoreRecord, type World } from './world'

export const DEFENCES = ['none', 'delimiters', 'keyword_filter', 'strict_filter'] as const
export type Defence = (typeof DEFENCES)[number]

export function isDefence(value: string): value is Defence {
  return (DEFENCES as readonly string[]).includes(value)
}

export const BLOCKED_PHRASES: readonly string[] = [
  'ignore previous instructions',
  'ignore all previous',
  'ignore the above',
  'disregard',
  'new instructions',
  'system prompt',
  '</data>',
]

/** A piece of text the assistant will act on, with where it came from and why it counts as instructions. */
export interface Followable {
  readonly text: string
  readonly source: StoreRecord
  readonly why: string
}

export interface PreparedOutput {
  /** What the tool output looks like in the assistant's context. */
  readonly shown: string
  readonly followable: readonly Followable[]
  /** Why records were dropped or instructions ignored: the explanation a stakeholder reads. */
  readonly notes: readonly string[]
}

function formatRecord(r: StoreRecord): string {
  switch (r.store) {
    case 'inbox':
      return `From: ${r.author}\nSubject: ${r.title}\n\n${r.body}`
    case 'calendar':
      return `${r.title} (organizer: ${r.author})\n${r.body}`
    case 'drive':
      return `File: ${r.title} (owner: ${r.author})\n${r.body}`
    case 'bank_account':
      return `${r.title}: ${r.body} (${r.author})`
  }
}

const label = (r: StoreRecord) => `'${r.title}' from ${r.author}`
const CLOSE_TAG = /<\s*\/\s*data\s*>/i
const OPEN_TAG = /<\s*data\b[^>]*>/i

/** What lies outside every <data> block, read as leniently as a language model would. */
function outsideData(shown: string): string[] {
  const outside: string[] = []
  let rest = shown
  for (;;) {
    const open = OPEN_TAG.exec(rest)
    if (!open) {
      if (rest.trim()) outside.push(rest)
      return outside
    }
    if (rest.slice(0, open.index).trim()) outside.push(rest.slice(0, open.index))
    rest = rest.slice(open.index + open[0].length)
    const close = CLOSE_TAG.exec(rest)
    if (!close) return outside
    rest = rest.slice(close.index + close[0].length)
  }
}

function wrap(r: StoreRecord): string {
  return `<data source="${r.store}">\n${formatRecord(r)}\n</data>`
}

function normalise(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, '')
}

function ignoredInsideData(records: readonly StoreRecord[], notes: string[]): void {
  for (const r of records) {
    for (const a of actionsIn(formatRecord(r))) {
      notes.push(`Ignored a request inside <data> from ${label(r)}: "${describeAction(a)}" (instructions in tool data are not followed).`)
    }
  }
}

/** Applies a defence to the records one tool returned. */
export function prepareToolOutput(defence: Defence, records: readonly StoreRecord[]): PreparedOutput {
  const notes: string[] = []
  if (defence === 'none') {
    return {
      shown: records.map(formatRecord).join('\n---\n'),
      followable: records.map((r) => ({
        text: formatRecord(r),
        source: r,
        why: 'no defence: tool output is read like any other instruction',
      })),
      notes,
    }
  }
  let kept = records
  if (defence === 'keyword_filter') {
    kept = records.filter((r) => {
      const lower = formatRecord(r).toLowerCase()
      const hit = BLOCKED_PHRASES.find((p) => lower.includes(p))
      if (hit) notes.push(`Dropped ${label(r)}: the keyword filter matched "${hit}".`)
      return !hit
    })
  }
  if (defence === 'strict_filter') {
    return strict(records, notes)
  }
  // Each record is wrapped on its own, so whatever escapes a block is the
  // doing of that record's author.
  const followable: Followable[] = []
  for (const r of kept) {
    const escaped = outsideData(wrap(r))
    if (escaped.length === 0) ignoredInsideData([r], notes)
    for (const text of escaped) {
      followable.push({ text, source: r, why: 'this text comes after a closing </data> tag, so it reads as outside the data block' })
    }
  }
  return { shown: kept.map(wrap).join('\n'), followable, notes }
}

/** What each defence makes of a store nobody planted into: the same in every run, worked out once. */
const untouched = new Map<string, PreparedOutput>()

/** The tool output of `store` under `defence`, as prepareToolOutput makes it from the world's records. */
export function preparedStore(defence: Defence, world: World, store: Store): PreparedOutput {
  if (world.planted.some((p) => p.store === store)) return prepareToolOutput(defence, world.records(store))
  const key = `${defence} ${store}`
  let prepared = untouched.get(key)
  if (prepared === undefined) {
    prepared = prepareToolOutput(defence, BASE_RECORDS[store])
    untouched.set(key, prepared)
  }
  return prepared
}

function strict(records: readonly StoreRecord[], notes: string[]): PreparedOutput {
  const parts: string[] = []
  const followable: Followable[] = []
  for (const r of records) {
    const text = formatRecord(r)
    const flat = normalise(text)
    const hit = BLOCKED_PHRASES.map(normalise).find((p) => flat.includes(p)) ?? (flat.includes('</data') ? '</data' : undefined)
    if (hit) {
      notes.push(`Dropped ${label(r)}: the strict filter matched "${hit}" after normalising the text.`)
      continue
    }
    if (TRUSTED_CONTACTS.includes(r.author.toLowerCase())) {
      parts.push(`<request from="${r.author}">\n${text}\n</request>`)
      followable.push({
        text,
        source: r,
        why: `${r.author} is a trusted contact, whose requests are executed as the user's (the sender is taken from the From: header, unverified)`,
      })
      continue
    }
    const asks = actionsIn(text)
    if (asks.length > 0) {
      notes.push(`Quarantined ${label(r)}: an untrusted record asks to ${describeAction(asks[0])}.`)
      continue
    }
    parts.push(`<data source="${r.store}">\n${text}\n</data>`)
  }
  return { shown: parts.join('\n'), followable, notes }
}
