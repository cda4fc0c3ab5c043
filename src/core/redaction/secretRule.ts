/**
 * A redaction rule for one secret value (a passphrase, a key from the task's
 * configuration) that also matches the forms a model turns it into to slip
 * past a literal filter: spelled out with spaces or dashes, reversed, base64
 * (at any alignment inside a longer encoded text) and hex. Pattern rules only
 * catch what they spell; this rule spells the common transformations. It
 * still cannot catch every encoding (a cipher, a translation, a riddle).
 */
import { base64Cores, bytesOf, MIN_SECRET_CHARS } from './base64Cores'
import { userRule, type RedactionRule } from './rules'

export { base64Cores, MIN_SECRET_CHARS } from './base64Cores'

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')

/** Between letters of a spelled-out secret: spaces, dashes, dots, commas, underscores (or nothing). */
const SEPARATOR = String.raw`[\s\-_.,]*`

function spelled(chars: readonly string[]): string {
  return chars.map(escape).join(SEPARATOR)
}

/** The alternatives the rule matches, as regular expression sources (for tests and for the rule). */
export function secretForms(value: string): string[] {
  const chars = [...value]
  const hex = [...bytesOf(value)].map((b) => b.toString(16).padStart(2, '0'))
  return [spelled(chars), spelled([...chars].reverse()), ...base64Cores(value).map(escape), hex.join(String.raw`[\s:]?`)]
}

/**
 * A rule masking `value` and its transformed forms, case-insensitively. The label never
 * repeats the value: labels show in the dialog and in counts, and the point is to hide it.
 */
export function secretRule(id: string, value: string, source: string): RedactionRule | { error: string } {
  const v = value.trim()
  if ([...v].length < MIN_SECRET_CHARS)
    return { error: `A secret needs at least ${MIN_SECRET_CHARS} characters, or it would mask ordinary words.` }
  const rule = userRule(id, `(?:${secretForms(v).join('|')})`, 'gi')
  return { ...rule, label: `${source}, also spaced, reversed, base64 and hex` }
}
