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

export function pyDumps(value: unknown, options: PyDumpOptions = {}): string {
  const ensureAscii = options.ensureAscii ?? true
  const indent = options.indent
  const walk = (v: unknown, depth: number): string => {
    if (v === null || v === undefined) return 'null'
    if (v instanceof PyFloat) return pyFloatRepr(v.value)
    switch (typeof v) {
      case 'boolean': return v ? 'true' : 'false'
      case 'number': return Number.isInteger(v) ? String(v) : pyFloatRepr(v)
      case 'string': return quote(v, ensureAscii)
      case 'object': break
      default: return 'null'
    }
    const pad = indent === undefined ? '' : '\n' + ' '.repeat(indent * (depth + 1))
    const end = indent === undefined ? '' : '\n' + ' '.repeat(indent * depth)
    const sep = indent === undefined ? ',' : ','
    const colon = indent === undefined ? ':' : ': '
    if (Array.isArray(v)) {
      if (v.length === 0) return '[]'
      return `[${v.map((x) => pad + walk(x, depth + 1)).join(sep)}${end}]`
    }
    let entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined)
    if (options.sortKeys) entries = entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    if (entries.length === 0) return '{}'
    return `{${entries.map(([k, x]) => `${pad}${quote(k, ensureAscii)}${colon}${walk(x, depth + 1)}`).join(sep)}${end}}`
  }
  return walk(value, 0)
}
