/**
 * One results file redacted for a bundle: every string value and key of the
 * JSON (not the raw text: an escape such as \u00a0 or \" would hide a match
 * from a pattern run over the text), written back only when something was
 * masked, so an untouched file keeps its exact bytes (superred's float
 * spelling included). Text that is not JSON, or nested too deep to walk, is
 * redacted as text.
 */
import { jsonDeeperThan, MAX_JSON_DEPTH } from '../json'
import { mayMatch, redactText, type CompiledRules } from '../redaction'

export interface RedactedFile {
  readonly text: string
  /** Masks put in, by rule id. */
  readonly masked: ReadonlyMap<string, number>
}

export function redactFileText(text: string, compiled: CompiledRules): RedactedFile {
  const masked = new Map<string, number>()
  const mask = (s: string): string => {
    const r = redactText(s, compiled)
    if (r.matches.length === 0) return s
    for (const m of r.matches) masked.set(m.ruleId, (masked.get(m.ruleId) ?? 0) + 1)
    return r.text
  }
  // Most files hold nothing any rule could match: kept as they are, unparsed. Only a \u escape could hide a
  // hint from this look at the raw text (JSON escapes no other printable ASCII but " and \, which no hint has).
  if (!text.includes('\\u') && !mayMatch(text, compiled)) return { text, masked }
  let value: unknown
  try {
    if (jsonDeeperThan(text, MAX_JSON_DEPTH)) return { text: mask(text), masked }
    value = JSON.parse(text)
  } catch {
    return { text: mask(text), masked }
  }
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return mask(v)
    if (Array.isArray(v)) return v.map(walk)
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {}
      for (const k in v) {
        if (!Object.hasOwn(v, k)) continue
        const key = mask(k)
        const x = walk((v as Record<string, unknown>)[k])
        // defineProperty: a key named __proto__ stays a key (an assignment would set the prototype).
        if (key === '__proto__') Object.defineProperty(out, key, { value: x, enumerable: true, writable: true, configurable: true })
        else out[key] = x
      }
      return out
    }
    return v
  }
  const redacted = walk(value)
  if (masked.size === 0) return { text, masked }
  return { text: `${JSON.stringify(redacted, null, 2)}\n`, masked }
}

/** A path, each segment redacted as a value would be (a folder named after a secret keeps no secret). */
export function redactPath(path: string, compiled: CompiledRules, masked?: Map<string, number>): string {
  return path
    .split('/')
    .map((s) => {
      const r = redactText(s, compiled)
      if (masked) for (const m of r.matches) masked.set(m.ruleId, (masked.get(m.ruleId) ?? 0) + 1)
      return r.text
    })
    .join('/')
}
