/**
 * Just enough of Python's tokenizer to read a security_tags.py module without
 * running it: names, string literals (with prefixes, triple quotes and
 * escapes), numbers, operators, comments, and logical lines (a newline inside
 * brackets, or after a backslash, does not end a statement).
 */
export type Token =
  | { kind: 'name'; value: string; line: number }
  | { kind: 'string'; value: string; line: number; endLine: number; prefix: string }
  | { kind: 'number'; value: string; line: number }
  | { kind: 'op'; value: string; line: number }
  | { kind: 'comment'; value: string; line: number }

/** A logical line: its tokens (comments kept apart) and where it starts and ends. */
export interface Statement {
  tokens: Token[]
  comments: Array<{ value: string; line: number }>
  line: number
  endLine: number
}

export class PythonSyntaxError extends Error {
  readonly line: number
  constructor(line: number, message: string) {
    super(`line ${line}: ${message}`)
    this.name = 'PythonSyntaxError'
    this.line = line
  }
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '\n': '',
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
}

function unescape(body: string, line: number): string {
  let out = ''
  for (let i = 0; i < body.length; i++) {
    const c = body[i]
    if (c !== '\\') {
      out += c
      continue
    }
    const n = body[++i]
    if (n === undefined) break
    if (n in SIMPLE_ESCAPES) out += SIMPLE_ESCAPES[n]
    else if (n === 'x' || n === 'u' || n === 'U') {
      const len = n === 'x' ? 2 : n === 'u' ? 4 : 8
      const hex = body.slice(i + 1, i + 1 + len)
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== len) throw new PythonSyntaxError(line, `bad \\${n} escape in a string`)
      out += String.fromCodePoint(parseInt(hex, 16))
      i += len
    } else if (/[0-7]/.test(n)) {
      const oct = /^[0-7]{1,3}/.exec(body.slice(i))![0]
      out += String.fromCharCode(parseInt(oct, 8))
      i += oct.length - 1
    } else if (n === 'N') {
      throw new PythonSyntaxError(line, 'a \\N{...} escape cannot be read here; write the character itself')
    } else out += `\\${n}`
  }
  return out
}

const OPS = [
  '**=',
  '//=',
  '>>=',
  '<<=',
  '->',
  ':=',
  '**',
  '//',
  '==',
  '!=',
  '<=',
  '>=',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '<<',
  '>>',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ',',
  ':',
  '.',
  ';',
  '@',
  '=',
  '+',
  '-',
  '*',
  '/',
  '%',
  '&',
  '|',
  '^',
  '~',
  '<',
  '>',
]

export function tokenize(source: string): Statement[] {
  const statements: Statement[] = []
  let current: Statement | null = null
  let depth = 0
  let line = 1
  let i = 0
  const push = (t: Token) => {
    if (!current) current = { tokens: [], comments: [], line: t.line, endLine: t.line }
    if (t.kind === 'comment') current.comments.push({ value: t.value, line: t.line })
    else current.tokens.push(t)
    current.endLine = 'endLine' in t ? t.endLine : t.line
  }
  const endStatement = () => {
    if (current && current.tokens.length > 0) statements.push(current)
    else if (current && statements.length > 0) statements[statements.length - 1].comments.push(...current.comments)
    current = null
  }
  while (i < source.length) {
    const c = source[i]
    if (c === '\n') {
      line++
      i++
      if (depth === 0) endStatement()
      continue
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f') {
      i++
      continue
    }
    if (c === '\\' && source[i + 1] === '\n') {
      i += 2
      line++
      continue
    }
    if (c === '#') {
      const end = source.indexOf('\n', i)
      const text = source.slice(i + 1, end < 0 ? source.length : end)
      // A comment on its own line belongs to no statement: keep it with the previous one.
      if (current) push({ kind: 'comment', value: text.trim(), line })
      i = end < 0 ? source.length : end
      continue
    }
    const str = /^([rRbBuUfF]{0,2})('''|"""|'|")/.exec(source.slice(i, i + 5))
    if (str && (str[1] === '' || /^(r|b|u|f|rb|br|fr|rf)$/i.test(str[1]))) {
      const prefix = str[1].toLowerCase()
      const quote = str[2]
      const start = line
      let j = i + str[0].length
      let body = ''
      for (;;) {
        if (j >= source.length) throw new PythonSyntaxError(start, 'a string is never closed')
        if (source.startsWith(quote, j)) break
        const ch = source[j]
        if (ch === '\n') {
          if (quote.length === 1) throw new PythonSyntaxError(start, 'a string runs past the end of its line')
          line++
        }
        if (ch === '\\' && j + 1 < source.length) {
          if (source[j + 1] === '\n') line++
          body += ch + source[j + 1]
          j += 2
          continue
        }
        body += ch
        j++
      }
      i = j + quote.length
      const value = prefix.includes('r') ? body : unescape(body, start)
      push({ kind: 'string', value, line: start, endLine: line, prefix })
      continue
    }
    const name = /^[A-Za-z_\u00C0-\uFFFF][A-Za-z0-9_\u00C0-\uFFFF]*/.exec(source.slice(i, i + 200))
    if (name) {
      push({ kind: 'name', value: name[0], line })
      i += name[0].length
      continue
    }
    const num = /^(0[xXoObB][0-9a-fA-F_]+|\d[\d_]*\.?\d*(e[+-]?\d+)?j?|\.\d+)/.exec(source.slice(i, i + 100))
    if (num) {
      push({ kind: 'number', value: num[0], line })
      i += num[0].length
      continue
    }
    const op = OPS.find((o) => source.startsWith(o, i))
    if (op) {
      if ('([{'.includes(op)) depth++
      if (')]}'.includes(op)) depth = Math.max(0, depth - 1)
      push({ kind: 'op', value: op, line })
      i += op.length
      continue
    }
    throw new PythonSyntaxError(line, `unexpected character ${JSON.stringify(c)}`)
  }
  if (depth > 0 && current) throw new PythonSyntaxError((current as Statement).line, 'a bracket opened here is never closed')
  endStatement()
  return statements
}
