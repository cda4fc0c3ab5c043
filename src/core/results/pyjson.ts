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
}

/** Marks a number as a Python float; null stays null. */
export function pyFloat(value: number): PyFloat
export function pyFloat(value: number | null): PyFloat | null
export function pyFloat(value: number | null): PyFloat | null {
  return value === null ? null : new PyFloat(value)
}

/** Python's `repr(float)`: shortest round-trip digits, scientific below 1e-4 and from 1e16. */
export function pyFloatRepr(x: number): string {
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
  return ensureAscii ? json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : json
}

const hasOwn = Object.prototype.hasOwnProperty

/**
 * `value` printed as json.dumps prints it. `depth` is the nesting level the
 * value sits at inside an enclosing document (its lines are indented for it),
 * so that pieces of a large file can be printed once and joined. The text is
 * collected in one list and joined once: the result is a flat string, not a
 * rope of thousands of pieces that every later join would walk again.
 */
export function pyDumps(value: unknown, options: PyDumpOptions = {}, depth = 0): string {
  const ensureAscii = options.ensureAscii ?? true
  const indent = options.indent
  const sortKeys = options.sortKeys ?? false
  const colon = indent === undefined ? ':' : ': '
  // Line breaks with the indentation of each depth, built once per call.
  const breaks: string[] = []
  const lineAt = (d: number) => (indent === undefined ? '' : (breaks[d] ??= '\n' + ' '.repeat(indent * d)))
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
      case 'boolean': out.push(v ? 'true' : 'false'); return
      case 'number': out.push(Number.isInteger(v) ? String(v) : pyFloatRepr(v)); return
      case 'string': out.push(quote(v, ensureAscii)); return
      case 'object': break
      default: out.push('null'); return
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
