/**
 * A redaction rule for one secret value (a passphrase, a key from the task's
 * configuration) that also matches the forms a model turns it into to slip
 * past a literal filter: spelled out with spaces or dashes, reversed, base64
 * (at any alignment inside a longer encoded text) and hex. Pattern rules only
 * catch what they spell; this rule spells the common transformations. It
 * still cannot catch every encoding (a cipher, a translation, a riddle).
 */
import { userRule, type RedactionRule } from './rules'

/** Below this, a value would mask ordinary words. */
export const MIN_SECRET_CHARS = 4

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')

/** Between letters of a spelled-out secret: spaces, dashes, dots, commas, underscores (or nothing). */
const SEPARATOR = String.raw`[\s\-_.,]*`

function spelled(chars: readonly string[]): string {
  return chars.map(escape).join(SEPARATOR)
}

function bytesOf(s: string): Uint8Array {
  return new TextEncoder().encode(s)
}

function base64(bytes: Uint8Array): string {
  let bin = ''
  for (const b of bytes) bin += String.fromCharCode(b)
  return btoa(bin)
}

/**
 * The base64 text the secret's bytes always produce, whatever comes before or after them:
 * one string per alignment (0, 1 or 2 bytes before it in the encoded text).
 */
export function base64Cores(value: string): string[] {
  const bytes = bytesOf(value)
  const out: string[] = []
  for (let k = 0; k < 3; k++) {
    const padded = new Uint8Array(k + bytes.length)
    padded.set(bytes, k)
    const text = base64(padded)
    // Characters fully determined by the secret: after the ones the k unknown bytes touch, before the last partial group.
    const start = k === 0 ? 0 : k === 1 ? 2 : 3
    const end = Math.floor((k + bytes.length) / 3) * 4
    const core = text.slice(start, end)
    if (core.length >= 4) out.push(core)
  }
  return out
}

/** The alternatives the rule matches, as regular expression sources (for tests and for the rule). */
export function secretForms(value: string): string[] {
  const chars = [...value]
  const hex = [...bytesOf(value)].map((b) => b.toString(16).padStart(2, '0'))
  return [
    spelled(chars),
    spelled([...chars].reverse()),
    ...base64Cores(value).map(escape),
    hex.join(String.raw`[\s:]?`),
  ]
}

/**
 * A rule masking `value` and its transformed forms, case-insensitively. The label never
 * repeats the value: labels show in the dialog and in counts, and the point is to hide it.
 */
export function secretRule(id: string, value: string, source: string): RedactionRule | { error: string } {
  const v = value.trim()
  if ([...v].length < MIN_SECRET_CHARS) return { error: `A secret needs at least ${MIN_SECRET_CHARS} characters, or it would mask ordinary words.` }
  const rule = userRule(id, `(?:${secretForms(v).join('|')})`, 'gi')
  return { ...rule, label: `${source}, also spaced, reversed, base64 and hex` }
}
