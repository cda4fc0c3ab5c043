/**
 * Redaction rules for exports. A rule is a regular expression; when it has a
 * named group `secret`, only that group is masked (so "Bearer " stays
 * readable), else the whole match is. A user's rule runs on the linear-time
 * engine (core/patterns), so a rule cannot hang an export; the built-in
 * rules, written here, run on JavaScript's.
 */
import { PatternError, trustedPattern, userPattern, type TextPattern } from '../patterns'

export interface RedactionRule {
  readonly id: string
  readonly label: string
  readonly pattern: string
  readonly flags: string
  readonly builtin: boolean
  /**
   * Lowercase strings at least one of which every match contains: a text
   * holding none of them cannot match, and the rule is not run over it (a
   * results tree of 25,000 files is mostly text no rule can match). Trusted
   * only on the rules shipped here.
   */
  readonly hints?: readonly string[]
  /**
   * A character class every character of a match belongs to (the rule has no
   * anchor or lookaround): the rule then runs only over the runs of such
   * characters that hold a hint, which finds the same matches. For a pattern
   * that opens with a long class (an e-mail's local part), the engine would
   * otherwise rescan every word from each of its letters. Shipped rules only.
   */
  readonly within?: string
}

export const BUILTIN_RULES: readonly RedactionRule[] = [
  {
    id: 'api-key',
    label: 'API key (sk-…)',
    builtin: true,
    flags: 'g',
    hints: ['sk-'],
    pattern: String.raw`\bsk-(?:[A-Za-z]+-)?[A-Za-z0-9_-]{16,}`,
  },
  {
    id: 'bearer',
    label: 'Bearer token',
    builtin: true,
    flags: 'gi',
    hints: ['bearer'],
    pattern: String.raw`\bBearer\s+(?<secret>[A-Za-z0-9._~+/=-]{8,})`,
  },
  {
    id: 'email',
    label: 'E-mail address',
    builtin: true,
    flags: 'g',
    hints: ['@'],
    within: '[A-Za-z0-9._%+@-]',
    pattern: String.raw`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}`,
  },
  {
    id: 'jwt',
    label: 'JSON Web Token',
    builtin: true,
    flags: 'g',
    hints: ['eyj'],
    pattern: String.raw`\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}`,
  },
  {
    id: 'vendor-token',
    label: 'Vendor token (GitHub, Slack, AWS, Google)',
    builtin: true,
    flags: 'g',
    hints: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_', 'xox', 'akia', 'aiza'],
    pattern: String.raw`\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35})`,
  },
  {
    id: 'assigned-secret',
    label: 'key=value secret (api_key, token, password…)',
    builtin: true,
    flags: 'gi',
    hints: ['key', 'token', 'secret', 'passw'],
    pattern: String.raw`\b(?:api[_-]?key|access[_-]?token|auth[_-]?token|token|secret|password|passwd)\b["']?\s*[:=]\s*["']?(?<secret>[^\s"',;]{6,})`,
  },
]

export type RuleProblem = { readonly code: 'empty' | 'invalid' | 'matches_empty'; readonly message: string }

/** A built-in rule exactly as shipped (a stored rule that only claims to be one runs as a user's). */
export function isShippedRule(rule: Pick<RedactionRule, 'pattern' | 'flags'> & { id?: string }): boolean {
  return BUILTIN_RULES.some((b) => b.id === rule.id && b.pattern === rule.pattern && b.flags === rule.flags)
}

export function isRuleProblem(compiled: TextPattern | RuleProblem): compiled is RuleProblem {
  return 'code' in compiled
}

/** Compiles a rule, or says why it cannot be used. */
export function compileRule(rule: Pick<RedactionRule, 'pattern' | 'flags'> & { id?: string }): TextPattern | RuleProblem {
  if (rule.pattern.trim() === '') return { code: 'empty', message: 'The pattern is empty.' }
  let pattern: TextPattern
  try {
    pattern = isShippedRule(rule) ? trustedPattern(new RegExp(rule.pattern, rule.flags)) : userPattern(rule.pattern, rule.flags)
  } catch (e) {
    const reason = e instanceof PatternError ? e.message : `not a valid regular expression (${(e as Error).message})`
    return { code: 'invalid', message: `${reason[0].toUpperCase()}${reason.slice(1)}.` }
  }
  // A pattern that matches nothing-at-all would mask every gap between characters.
  if (pattern.test('')) {
    return { code: 'matches_empty', message: 'The pattern matches the empty string; it would mask nothing useful.' }
  }
  return pattern
}

export function userRule(id: string, pattern: string, flags = 'g'): RedactionRule {
  return { id, label: `Custom: /${pattern}/`, pattern, flags, builtin: false }
}
