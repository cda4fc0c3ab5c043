/**
 * Regular expressions written by users (claim files' evaluators, redaction
 * rules) run on RE2 (re2js, a pure JavaScript port), which matches in time
 * linear in the text: no pattern, however it nests its repeats, can hang the
 * app or the CLI, as `(a+)+$` on a long observation hangs JavaScript's
 * backtracking engine. The price is RE2's syntax: no lookahead, lookbehind or
 * backreference (refused with the engine's reason when the pattern is read);
 * `\s` and `\w` are ASCII, and `.` and multiline `^`/`$` know only `\n` as a
 * line end. JavaScript flags map onto RE2's: i, m, s; g, u and d change
 * nothing here; y and v are refused.
 */
import { RE2JS, RE2JSException } from 're2js'

export interface PatternMatch {
  /** Offset in the text, in UTF-16 code units (as String.prototype.slice counts). */
  readonly index: number
  readonly text: string
  /** Named groups; a group that took no part is undefined. */
  readonly groups: Readonly<Record<string, string | undefined>>
}

/** A compiled pattern: a test and every non-overlapping match, left to right. */
export interface TextPattern {
  readonly source: string
  readonly flags: string
  test(text: string): boolean
  matchAll(text: string): Iterable<PatternMatch>
}

/** A pattern the linear-time engine will not take, with the reason and which part (`pattern` or `flags`) is wrong. */
export class PatternError extends Error {
  readonly field: 'pattern' | 'flags'
  constructor(field: 'pattern' | 'flags', message: string) {
    super(message)
    this.name = 'PatternError'
    this.field = field
  }
}

const FLAG_BITS: Readonly<Record<string, number>> = {
  i: RE2JS.CASE_INSENSITIVE,
  m: RE2JS.MULTILINE,
  s: RE2JS.DOTALL,
  g: 0,
  u: 0,
  d: 0,
}

function flagBits(flags: string): number {
  let bits = 0
  const seen = new Set<string>()
  for (const f of flags) {
    if (seen.has(f)) throw new PatternError('flags', `"${flags}" repeats the flag ${f}`)
    seen.add(f)
    if (f === 'y' || f === 'v') {
      throw new PatternError('flags', `the flag ${f} is not supported by the linear-time engine (use i, m, s; g, u and d are accepted)`)
    }
    const bit = FLAG_BITS[f]
    if (bit === undefined) throw new PatternError('flags', `"${flags}" is not a set of regular expression flags (i, m, s, g, u, d)`)
    bits |= bit
  }
  return bits
}

/**
 * Compiled patterns by flags and source, shared by every evaluator that asks for the same one: a sweep makes a claim's
 * evaluators once per threat model, and RE2 builds its automaton lazily, per compiled pattern, as it matches. Sharing
 * is safe (a compiled pattern keeps no state of a match; its automaton has a memory budget of its own), and bounded:
 * past COMPILED_KEPT patterns (export redaction rules are compiled as they are typed) the oldest is forgotten.
 */
const compiled = new Map<string, RE2JS>()
const COMPILED_KEPT = 64

function compile(source: string, bits: number): RE2JS {
  const key = `${bits}/${source}`
  let re = compiled.get(key)
  if (re === undefined) {
    // JavaScript spellings RE2 writes differently ((?<name>…), \u{…}) are translated first.
    re = RE2JS.compile(RE2JS.translateRegExp(source), bits)
    if (compiled.size >= COMPILED_KEPT) compiled.delete(compiled.keys().next().value!)
    compiled.set(key, re)
  }
  return re
}

/**
 * A backreference outside a character class (`\\k<name>`, `\\1`…`\\9`), or null. RE2 refuses `\\1` itself, but the
 * translation from JavaScript's syntax turns `\\k<n>` into the text "k<n>" and `\\8` into "8": another pattern,
 * silently. (Inside a class, `\\1` is an octal escape and `\\k` a plain k, which RE2 reads alike.)
 */
function backreferenceIn(source: string): string | null {
  let inClass = false
  for (let i = 0; i < source.length; i++) {
    const c = source[i]
    if (c === '\\') {
      const next = source[i + 1] ?? ''
      if (!inClass && (/[1-9]/.test(next) || (next === 'k' && source[i + 2] === '<'))) {
        return next === 'k' ? source.slice(i, source.indexOf('>', i) + 1 || i + 3) : `\\${next}`
      }
      i++
    } else if (c === '[') inClass = true
    else if (c === ']') inClass = false
  }
  return null
}

/** Compiles a user's pattern for RE2, or throws a PatternError saying why it cannot run there. */
export function userPattern(source: string, flags = ''): TextPattern {
  const bits = flagBits(flags)
  const backreference = backreferenceIn(source)
  if (backreference !== null) {
    throw new PatternError(
      'pattern',
      `not supported by the linear-time engine (RE2) that runs it: the backreference ${backreference} (lookaround and backreferences cannot run in linear time)`,
    )
  }
  let re: RE2JS
  try {
    re = compile(source, bits)
  } catch (e) {
    // JavaScript's own verdict first: only compiled, never run, so it costs nothing to ask.
    try {
      new RegExp(source, flags)
    } catch (jsError) {
      throw new PatternError('pattern', `not a valid regular expression (${(jsError as Error).message})`)
    }
    const reason = e instanceof RE2JSException ? e.message.replace(/^error parsing regexp: /, '') : String(e)
    throw new PatternError(
      'pattern',
      `not supported by the linear-time engine (RE2) that runs it: ${reason} (lookaround and backreferences cannot run in linear time)`,
    )
  }
  return {
    source,
    flags,
    test: (text) => re.test(text),
    *matchAll(text) {
      for (const m of re.matchAll(text)) {
        yield { index: m.index ?? 0, text: m[0], groups: m.groups ?? {} }
      }
    },
  }
}

/**
 * One of redscope's own patterns, written and reviewed here (not a user's):
 * JavaScript's engine, which is faster on large exports.
 */
export function trustedPattern(re: RegExp): TextPattern {
  const global = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`)
  const single = new RegExp(re.source, re.flags.replace('g', ''))
  return {
    source: re.source,
    flags: re.flags,
    test: (text) => single.test(text),
    *matchAll(text) {
      for (const m of text.matchAll(global)) yield { index: m.index ?? 0, text: m[0], groups: m.groups ?? {} }
    },
  }
}
