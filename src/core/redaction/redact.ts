import type { TextPattern } from '../patterns'
import { compileRule, isRuleProblem, type RedactionRule } from './rules'

export interface RedactionMatch {
  readonly ruleId: string
  /** Offsets of the masked span in the original text. */
  readonly start: number
  readonly end: number
}

export interface CompiledRules {
  readonly rules: ReadonlyArray<{ rule: RedactionRule; pattern: TextPattern }>
  /** Rules that could not be compiled, with the reason; they are skipped. */
  readonly problems: ReadonlyArray<{ rule: RedactionRule; message: string }>
}

export function compileRules(rules: readonly RedactionRule[]): CompiledRules {
  const ok: Array<{ rule: RedactionRule; pattern: TextPattern }> = []
  const problems: Array<{ rule: RedactionRule; message: string }> = []
  for (const rule of rules) {
    const compiled = compileRule(rule)
    if (isRuleProblem(compiled)) problems.push({ rule, message: compiled.message })
    else ok.push({ rule, pattern: compiled })
  }
  return { rules: ok, problems }
}

export const maskFor = (ruleId: string) => `[redacted:${ruleId}]`

/** Every span to mask, earliest first, overlaps merged (the first rule to claim a span keeps it). */
export function findMatches(text: string, compiled: CompiledRules): RedactionMatch[] {
  const found: RedactionMatch[] = []
  for (const { rule, pattern } of compiled.rules) {
    for (const m of pattern.matchAll(text)) {
      if (m.text.length === 0) continue
      const secret = m.groups.secret
      const start = secret !== undefined ? m.index + m.text.lastIndexOf(secret) : m.index
      const end = secret !== undefined ? start + secret.length : m.index + m.text.length
      found.push({ ruleId: rule.id, start, end })
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
  texts: Iterable<{ where: string; text: string }>, compiled: CompiledRules, limit = 200, context = 24,
): RedactionPreview {
  const entries: PreviewEntry[] = []
  const counts: Record<string, number> = {}
  let total = 0
  for (const { where, text } of texts) {
    for (const m of findMatches(text, compiled)) {
      total++
      counts[m.ruleId] = (counts[m.ruleId] ?? 0) + 1
      if (entries.length < limit) {
        entries.push({ where, ruleId: m.ruleId, before: text.slice(Math.max(0, m.start - context), m.start),
          match: text.slice(m.start, m.end), after: text.slice(m.end, m.end + context) })
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
