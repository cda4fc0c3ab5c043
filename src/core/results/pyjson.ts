/**
 * JSON as Python's `json.dumps` writes it. Two things differ from
 * JSON.stringify and matter here: floats (`1.0`, `1e-05`, `1e+16`), which
 * feed the identity hash, and `ensure_ascii` escaping. Values that Python
 * holds as floats are wrapped in PyFloat; plain numbers print as ints would.
 */
export class PyFloat {
  readonly value: number
  constructor(value: number) {
    this.value = value
  }

  /**
   * While pyDumps prints natively, a marked string that it replaces by the float's repr (JSON.stringify cannot
   * print raw text in Node 20); elsewhere the field itself, as JSON.stringify printed a PyFloat before.
   */
  toJSON(): unknown {
    if (marking === null) return { value: this.value }
    marking.count++
    return MARKER + pyFloatRepr(this.value)
  }
}

/**
 * The marker PyFloat.toJSON prints inside a native print, and how it reads once printed (its NUL escaped). The
 * random part makes a string that looks like a marker unlikely; pyDumps counts the markers anyway, so one that a
 * value did contain is caught, and that value is printed by the walker instead.
 */
export const MARKER = `\u0000pyfloat-${Math.random().toString(36).slice(2)}:`
const PRINTED_MARKERS = new RegExp(`"${JSON.stringify(MARKER).slice(1, -1).replaceAll('\\', '\\\\')}([^"]*)"`, 'g')
/** Set only while printNatively's JSON.stringify runs (synchronously): the floats it has marked. */
let marking: { count: number } | null = null

/** Marks a number as a Python float; null stays null. */
export function pyFloat(value: number): PyFloat
export function pyFloat(value: number | null): PyFloat | null
export function pyFloat(value: number | null): PyFloat | null {
  return value === null ? null : new PyFloat(value)
}

/** Python's `repr(float)`: shortest round-trip digits, scientific below 1e-4 and from 1e16. */
export function pyFloatRepr(x: number): string {
  // Where JavaScript prints plain notation with the same shortest digits (see printsAlike), only `.0` may be missing.
  if (printsAlike(x)) return Number.isInteger(x) ? `${x}.0` : String(x)
  if (Number.isNaN(x)) return 'NaN'
  if (x === Infinity) return 'Infinity'
  if (x === -Infinity) return '-Infinity'
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0'
  const [mantissa, expPart] = x.toExponential().split('e')
  const exp = Number(expPart)
  const negative = mantissa.startsWith('-')
  const digits = mantissa.replace('-', '').replace('.', '')
  const sign = negative ? '-' : ''
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits
    return `${sign}${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`
  const intLen = exp + 1
  if (digits.length <= intLen) return `${sign}${digits}${'0'.repeat(intLen - digits.length)}.0`
  return `${sign}${digits.slice(0, intLen)}.${digits.slice(intLen)}`
}

export interface PyDumpOptions {
  /** `indent=2` style when set; compact `,`/`:` separators otherwise. */
  readonly indent?: number
  readonly sortKeys?: boolean
  /** Python's default is true: every non-ASCII character as \uXXXX. */
  readonly ensureAscii?: boolean
}

function quote(s: string, ensureAscii: boolean): string {
  const json = JSON.stringify(s)
  // JSON.stringify already escapes quotes, backslashes and controls as Python
  // does (short forms, else \u00xx lowercase); ensure_ascii adds the rest.
  return ensureAscii ? json.replace(/[^\x20-\x7e]/g, escapeCodeUnit) : json
}

/** One UTF-16 code unit as ensure_ascii writes it: \uXXXX, lowercase (an astral character becomes its two surrogates). */
function escapeCodeUnit(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
}

const hasOwn = Object.prototype.hasOwnProperty

/**
 * Between 1e-4 and 1e16 both JavaScript and Python's repr print a float in plain notation with the shortest digits
 * that round-trip, so the texts agree (a timestamp, 0.25). Outside it they choose exponents differently (`1e-7`
 * against `1e-07`), and NaN and the infinities differ too.
 */
function printsAlike(x: number): boolean {
  const magnitude = Math.abs(x)
  return magnitude >= 1e-4 && magnitude < 1e16
}

/**
 * Collects the containers that JSON.stringify would not print as json.dumps does: those holding, at any depth, a
 * float that Python's repr prints differently (`1e-07`), anything but plain objects, arrays and PyFloats (a Date's
 * toJSON, a class), or a function, symbol or bigint; returns whether `v` is one. One post-order pass: an unsafe leaf
 * marks each container above it, and nothing else.
 */
function collectUnsafe(v: unknown, unsafe: Set<object>): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
    case 'undefined':
      return false
    case 'number':
      return !(Number.isInteger(v) || printsAlike(v))
    case 'object':
      break
    default:
      return true
  }
  if (v === null || v instanceof PyFloat) return false
  let bad = false
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (collectUnsafe(v[i], unsafe)) bad = true
  } else {
    const proto = Object.getPrototypeOf(v)
    if (proto !== Object.prototype && proto !== null) bad = true
    // for-in rather than Object.keys: no array per object; own keys only, as JSON.stringify prints.
    else for (const k in v) if (hasOwn.call(v, k) && collectUnsafe((v as Record<string, unknown>)[k], unsafe)) bad = true
  }
  if (bad) unsafe.add(v)
  return bad
}

/**
 * `v` through JSON.stringify, its PyFloats as Python prints them, moved to depth `d` and escaped as ensure_ascii
 * wants (the raw newlines of a native print are indentation only). Null when a string in `v` looked like a marker.
 */
function printNatively(v: object, indent: number | undefined, ensureAscii: boolean, lineAt: string): string | null {
  const marks = { count: 0 }
  marking = marks
  let text: string
  try {
    text = JSON.stringify(v, null, indent)
  } finally {
    marking = null
  }
  if (marks.count > 0) {
    let seen = 0
    text = text.replace(PRINTED_MARKERS, (_, repr: string) => {
      seen++
      return repr
    })
    if (seen !== marks.count) return null
  }
  if (lineAt.length > 1) text = text.replaceAll('\n', lineAt)
  return ensureAscii ? text.replace(/[^\x20-\x7e\n]/g, escapeCodeUnit) : text
}

/**
 * `value` printed as json.dumps prints it. `depth` is the nesting level the
 * value sits at inside an enclosing document (its lines are indented for it),
 * so that pieces of a large file can be printed once and joined. The text is
 * collected in one list and joined once: the result is a flat string, not a
 * rope of thousands of pieces that every later join would walk again.
 *
 * Containers that JSON.stringify prints identically (see collectUnsafe) are
 * handed to it whole, PyFloats printed through markers: a results tree is
 * strings, integers and such floats, and the native printer is several times
 * faster than this walker. Not with sortKeys (JSON.stringify cannot sort);
 * those values are small (identity hashes).
 */
export function pyDumps(value: unknown, options: PyDumpOptions = {}, depth = 0): string {
  const ensureAscii = options.ensureAscii ?? true
  const indent = options.indent
  const sortKeys = options.sortKeys ?? false
  const colon = indent === undefined ? ':' : ': '
  // Line breaks with the indentation of each depth, built once per call.
  const breaks: string[] = []
  const lineAt = (d: number) => (indent === undefined ? '' : (breaks[d] ??= '\n' + ' '.repeat(indent * d)))
  let unsafe: Set<object> | null = null
  // JSON.stringify prints indent 0 compact and caps indentation at 10 spaces: json.dumps does neither.
  if (!sortKeys && (indent === undefined || (indent >= 1 && indent <= 10))) {
    unsafe = new Set()
    if (!collectUnsafe(value, unsafe) && typeof value === 'object' && value !== null) {
      // The common case, a whole file in one native print.
      const text = printNatively(value, indent, ensureAscii, lineAt(depth))
      if (text !== null) return text
      unsafe = null
    }
  }
  const out: string[] = []
  const walk = (v: unknown, d: number): void => {
    if (v === null || v === undefined) {
      out.push('null')
      return
    }
    if (v instanceof PyFloat) {
      out.push(pyFloatRepr(v.value))
      return
    }
    switch (typeof v) {
      case 'boolean':
        out.push(v ? 'true' : 'false')
        return
      case 'number':
        out.push(Number.isInteger(v) ? String(v) : pyFloatRepr(v))
        return
      case 'string':
        out.push(quote(v, ensureAscii))
        return
      case 'object':
        break
      default:
        out.push('null')
        return
    }
    if (unsafe !== null && !unsafe.has(v)) {
      const text = printNatively(v, indent, ensureAscii, lineAt(d))
      if (text !== null) {
        out.push(text)
        return
      }
    }
    const pad = lineAt(d + 1)
    if (Array.isArray(v)) {
      if (v.length === 0) {
        out.push('[]')
        return
      }
      for (let i = 0; i < v.length; i++) {
        out.push(i === 0 ? `[${pad}` : `,${pad}`)
        walk(v[i], d + 1)
      }
      out.push(`${lineAt(d)}]`)
      return
    }
    const record = v as Record<string, unknown>
    let keys = Object.keys(record)
    if (sortKeys) keys = keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    let first = true
    for (const k of keys) {
      const x = record[k]
      if (x === undefined || !hasOwn.call(record, k)) continue
      out.push(first ? `{${pad}` : `,${pad}`, quote(k, ensureAscii), colon)
      walk(x, d + 1)
      first = false
    }
    out.push(first ? '{}' : `${lineAt(d)}}`)
  }
  walk(value, depth)
  return out.join('')
}
