/** Folder names of the results tree, by the reference's rules (semantics §6). */
import { sha256Hex } from './sha256'

const SLUG_MAXLEN = 24
const GOAL_MAXLEN = 50
const RESERVED = new Set([
  '',
  '.',
  '..',
  'con',
  'prn',
  'aux',
  'nul',
  ...Array.from({ length: 9 }, (_, i) => `com${i + 1}`),
  ...Array.from({ length: 9 }, (_, i) => `lpt${i + 1}`),
])

/** Python's str.isspace(): JS whitespace minus the BOM, plus the separators 0x1c-0x1f and NEL. */
const isPySpace = (c: string) => {
  const code = c.charCodeAt(0)
  return (code >= 0x1c && code <= 0x1f) || code === 0x85 || (c !== '\ufeff' && /\s/.test(c))
}
const pyStrip = (s: string) => {
  let start = 0
  let end = s.length
  while (start < end && isPySpace(s[start])) start++
  while (end > start && isPySpace(s[end - 1])) end--
  return s.slice(start, end)
}
const stripChars = (s: string, chars: string) => {
  let start = 0
  let end = s.length
  while (start < end && chars.includes(s[start])) start++
  while (end > start && chars.includes(s[end - 1])) end--
  return s.slice(start, end)
}
/** Python slices count code points, not UTF-16 units (irrelevant after the ASCII filter, kept for safety). */
const cut = (s: string, n: number) => [...s].slice(0, n).join('')

/** One slug segment: lowercase, path-safe, at most 24 characters, reserved names → "x". */
export function slugSegment(s: string, maxLen = SLUG_MAXLEN): string {
  const lowered = pyStrip(s).toLowerCase().replaceAll(' ', '-').replaceAll('/', '-')
  // One replacement per code point, as Python's regex over str.
  const cleaned = [...lowered]
    .map((c) => (/^[a-z0-9._-]$/.test(c) ? c : '-'))
    .join('')
    .replace(/-+/g, '-')
  const result = stripChars(cut(stripChars(cleaned, '-._'), maxLen), '-._')
  return RESERVED.has(result) ? 'x' : result || 'x'
}

/** `attacker__target__claim__model`, the model defaulting to `no-llm`. */
export function experimentSlug(attacker: string, target: string, claim: string, model: string | null): string {
  return [attacker, target, claim, model || 'no-llm'].map((s) => slugSegment(s)).join('__')
}

/**
 * A sweep names the same few goals in every experiment (task folders, manifests, task files): their slugs and
 * hashes are kept, up to a bound, rather than recomputed (sha256 in JavaScript, a regex per character).
 */
function remembered(compute: (s: string) => string): (s: string) => string {
  const known = new Map<string, string>()
  return (s) => {
    let value = known.get(s)
    if (value === undefined) {
      value = compute(s)
      if (known.size >= 256) known.clear()
      known.set(s, value)
    }
    return value
  }
}

export const goalSlug = remembered((goal) => {
  const cleaned = [...pyStrip(goal).toLowerCase()].map((c) => (/^[a-z0-9._-]$/.test(c) ? c : '_')).join('')
  return stripChars(cut(cleaned, GOAL_MAXLEN), '_') || 'task'
})

/** The first 16 hex digits of sha256(goal): resume matches tasks by it. */
export const goalHash = remembered((goal) => sha256Hex(goal).slice(0, 16))

/** `00001__leak_the_secret` */
export function taskDirName(index: number, goal: string): string {
  return `${String(index).padStart(5, '0')}__${goalSlug(goal)}`
}

export function runFileName(runNumber: number, suffix = ''): string {
  return `run_${String(runNumber).padStart(5, '0')}${suffix}.json`
}
