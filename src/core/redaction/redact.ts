import type { TextPattern } from '../patterns'
import { compileRule, isRuleProblem, isShippedRule, type RedactionRule } from './rules'

export interface RedactionMatch {
  readonly ruleId: string
  /** Offsets of the masked span in the original text. */
  readonly start: number
  readonly end: number
}

interface CompiledRule {
  readonly rule: RedactionRule
  readonly pattern: TextPattern
  readonly hints?: readonly string[]
  /** Whether a character may be part of a match (`within`), for the shipped rules that say so. */
  readonly inRun?: (code: number) => boolean
}

export interface CompiledRules {
  /** `hints`: the shipped rule's hints (rules.ts), undefined for any other rule (which always runs). */
  readonly rules: ReadonlyArray<CompiledRule>
  /** Rules that could not be compiled, with the reason; they are skipped. */
  readonly problems: ReadonlyArray<{ rule: RedactionRule; message: string }>
}

export function compileRules(rules: readonly RedactionRule[]): CompiledRules {
  const ok: CompiledRule[] = []
  const problems: Array<{ rule: RedactionRule; message: string }> = []
  for (const rule of rules) {
    const compiled = compileRule(rule)
    if (isRuleProblem(compiled)) problems.push({ rule, message: compiled.message })
    else if (!isShippedRule(rule)) ok.push({ rule, pattern: compiled })
    else {
      ok.push({
        rule,
        pattern: compiled,
        hints: rule.hints && rule.hints.length > 0 ? rule.hints : undefined,
        inRun: rule.within ? memberTest(rule.within) : undefined,
      })
    }
  }
  return { rules: ok, problems }
}

/** A test for one character (a UTF-16 unit) against a character class such as `[A-Za-z0-9._-]`. */
function memberTest(charClass: string): (code: number) => boolean {
  const one = new RegExp(`^${charClass}$`)
  const ascii = new Uint8Array(128)
  for (let c = 0; c < 128; c++) ascii[c] = one.test(String.fromCharCode(c)) ? 1 : 0
  return (code) => (code < 128 ? ascii[code] === 1 : one.test(String.fromCharCode(code)))
}

/**
 * Could any rule match somewhere in this text? False only when every rule has
 * hints and the text holds none of them: then nothing in it can be masked.
 */
export function mayMatch(text: string, compiled: CompiledRules): boolean {
  let lower: string | null = null
  for (const { hints } of compiled.rules) {
    if (!hints) return true
    lower ??= text.toLowerCase()
    if (holdsAny(lower, hints)) return true
  }
  return false
}

export const maskFor = (ruleId: string) => `[redacted:${ruleId}]`

function holdsAny(hay: string, hints: readonly string[]): boolean {
  for (const h of hints) if (hay.includes(h)) return true
  return false
}

function collectMatches(found: RedactionMatch[], rule: RedactionRule, pattern: TextPattern, piece: string, offset: number): void {
  for (const m of pattern.matchAll(piece)) {
    if (m.text.length === 0) continue
    const secret = m.groups.secret
    const start = offset + (secret !== undefined ? m.index + m.text.lastIndexOf(secret) : m.index)
    const end = secret !== undefined ? start + secret.length : offset + m.index + m.text.length
    found.push({ ruleId: rule.id, start, end })
  }
}

/** Every span to mask, earliest first, overlaps merged (the first rule to claim a span keeps it). */
export function findMatches(text: string, compiled: CompiledRules): RedactionMatch[] {
  // Most strings hold no hint of any rule: nothing to find, nothing to allocate.
  if (!mayMatch(text, compiled)) return []
  const found: RedactionMatch[] = []
  let lower: string | null = null
  const collect = (rule: RedactionRule, pattern: TextPattern, piece: string, offset: number) =>
    collectMatches(found, rule, pattern, piece, offset)
  for (const { rule, pattern, hints, inRun } of compiled.rules) {
    if (hints) {
      lower ??= text.toLowerCase()
      if (!holdsAny(lower, hints)) continue
    }
    // Only around each hint, within the run of characters a match is made of (lowercasing kept every offset).
    if (!inRun || !hints || lower === null || lower.length !== text.length) {
      collect(rule, pattern, text, 0)
      continue
    }
    const starts: number[] = []
    for (const h of hints) for (let i = lower.indexOf(h); i >= 0; i = lower.indexOf(h, i + 1)) starts.push(i)
    starts.sort((a, b) => a - b)
    let done = -1
    for (const at of starts) {
      if (at < done) continue
      let start = at
      while (start > 0 && inRun(text.charCodeAt(start - 1))) start--
      let end = at
      while (end < text.length && inRun(text.charCodeAt(end))) end++
      if (end <= at) continue
      collect(rule, pattern, text.slice(start, end), start)
      done = end
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end)
  const merged: RedactionMatch[] = []
  for (const m of found) {
    const last = merged[merged.length - 1]
    if (last && m.start < last.end) {
      if (m.end > last.end) merged[merged.length - 1] = { ...last, end: m.end }
      continue
    }
    merged.push(m)
  }
  return merged
}

export function redactText(text: string, compiled: CompiledRules): { text: string; matches: RedactionMatch[] } {
  const matches = findMatches(text, compiled)
  if (matches.length === 0) return { text, matches }
  let out = ''
  let at = 0
  for (const m of matches) {
    out += text.slice(at, m.start) + maskFor(m.ruleId)
    at = m.end
  }
  return { text: out + text.slice(at), matches }
}

/** Redacts every string in a JSON-like value (keys too), returning a new value. */
export function redactValue<T>(value: T, compiled: CompiledRules): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactText(v, compiled).text
    if (Array.isArray(v)) return v.map(walk)
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {}
      for (const [k, x] of Object.entries(v)) out[redactText(k, compiled).text] = walk(x)
      return out
    }
    return v
  }
  return walk(value) as T
}

export interface PreviewEntry {
  readonly where: string
  readonly ruleId: string
  /** The original text around the match, with the match itself. */
  readonly before: string
  readonly match: string
  readonly after: string
}

export interface RedactionPreview {
  readonly entries: readonly PreviewEntry[]
  readonly countsByRule: Readonly<Record<string, number>>
  readonly total: number
}

/** What would be masked, for the user to check before exporting. Lists at most `limit` entries, counts all. */
export function previewRedaction(
  texts: Iterable<{ where: string; text: string }>,
  compiled: CompiledRules,
  limit = 200,
  context = 24,
): RedactionPreview {
  const entries: PreviewEntry[] = []
  const counts: Record<string, number> = {}
  let total = 0
  for (const { where, text } of texts) {
    for (const m of findMatches(text, compiled)) {
      total++
      counts[m.ruleId] = (counts[m.ruleId] ?? 0) + 1
      if (entries.length < limit) {
        entries.push({
          where,
          ruleId: m.ruleId,
          before: text.slice(Math.max(0, m.start - context), m.start),
          match: text.slice(m.start, m.end),
          after: text.slice(m.end, m.end + context),
        })
      }
    }
  }
  return { entries, countsByRule: counts, total }
}

/** Every string inside a JSON-like value, with a path, for the preview. */
export function* stringsOf(value: unknown, where: string): Generator<{ where: string; text: string }> {
  if (typeof value === 'string') {
    yield { where, text: value }
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) yield* stringsOf(value[i], `${where}[${i}]`)
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      yield { where: `${where} (key)`, text: k }
      yield* stringsOf(v, `${where}.${k}`)
    }
  }
}
