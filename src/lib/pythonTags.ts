/**
 * Reads a superred `security_tags.py` without running Python: every
 * `X = SecurityDomainTag("name", parent=Y)` assignment (annotations, line
 * breaks, attribute docstrings and trailing comments allowed) and the
 * `SecurityDomain([...])` that lists them. A docstring right after a tag (or
 * else a trailing comment) becomes its description. Anything that only Python
 * could evaluate (a tag built in a comprehension, `*TAGS.values()`) is refused
 * with a message naming its line, as are the errors superred itself would
 * raise (an unknown parent, a duplicate name).
 */
import { buildDomain, SecurityDomainError, type Forest } from '../core/tags'
import { PythonSyntaxError, tokenize, type Statement, type Token } from './pythonTokens'

export class PythonImportError extends Error {
  readonly line: number
  constructor(line: number, message: string) {
    super(`line ${line}: ${message}`)
    this.name = 'PythonImportError'
    this.line = line
  }
}

export interface PythonImport {
  forest: Forest
  /** Things the user should know (tags left out, no SecurityDomain found). */
  notes: string[]
  /** The system's name from the module docstring's first line, when there is one (what redscope's export writes there). */
  title: string | null
}

/** The first line of a module docstring as a name: redscope's own export suffix dropped, cut to a readable length. */
export function docstringTitle(doc: string): string | null {
  const first = doc
    .trim()
    .split('\n')[0]
    .trim()
    .replace(/:\s*a superred SecurityDomain forest\.?$/i, '')
    .replace(/\.$/, '')
    .trim()
  if (first === '') return null
  return first.length > 80 ? `${first.slice(0, 79)}…` : first
}

/** A workspace name for an imported module: its docstring's title, else the file's name without `.py`. */
export function workspaceNameFor(imported: Pick<PythonImport, 'title'>, fileName: string): string {
  return imported.title ?? (fileName.replace(/\.py$/i, '').trim() || 'Imported security tags')
}

interface TagDef {
  variable: string
  name: string
  parentVar: string | null
  line: number
  description: string
}

const isOp = (t: Token | undefined, v: string) => t?.kind === 'op' && t.value === v

/** Splits `a, b=c, [d, e]` at top-level commas. */
function splitArgs(tokens: Token[]): Token[][] {
  const out: Token[][] = []
  let cur: Token[] = []
  let depth = 0
  for (const t of tokens) {
    if (t.kind === 'op' && '([{'.includes(t.value)) depth++
    if (t.kind === 'op' && ')]}'.includes(t.value)) depth--
    if (depth === 0 && isOp(t, ',')) {
      out.push(cur)
      cur = []
    } else cur.push(t)
  }
  if (cur.length) out.push(cur)
  return out
}

/** The index of the bracket closing the one at `open`. */
function closing(tokens: Token[], open: number): number {
  let depth = 0
  for (let i = open; i < tokens.length; i++) {
    const t = tokens[i]
    if (t.kind === 'op' && '([{'.includes(t.value)) depth++
    if (t.kind === 'op' && ')]}'.includes(t.value) && --depth === 0) return i
  }
  return -1
}

/** Finds `[mod.]Callee(` in a token list: the index of the callee name. */
function findCall(tokens: Token[], callee: string): number {
  return tokens.findIndex((t, i) => t.kind === 'name' && t.value === callee && isOp(tokens[i + 1], '(') && !isOp(tokens[i - 1], 'def'))
}

function callArgs(tokens: Token[], at: number): { positional: Token[][]; keywords: Map<string, Token[]>; end: number } {
  const end = closing(tokens, at + 1)
  const positional: Token[][] = []
  const keywords = new Map<string, Token[]>()
  for (const arg of splitArgs(tokens.slice(at + 2, end))) {
    if (arg[0]?.kind === 'name' && isOp(arg[1], '=')) keywords.set(arg[0].value, arg.slice(2))
    else positional.push(arg)
  }
  return { positional, keywords, end }
}

function stringValue(expr: Token[], line: number, what: string): string {
  if (expr.length === 0 || !expr.every((t) => t.kind === 'string')) {
    throw new PythonImportError(expr[0]?.line ?? line, `${what} must be a string literal`)
  }
  const strings = expr as Array<Extract<Token, { kind: 'string' }>>
  if (strings.some((s) => s.prefix.includes('f') || s.prefix.includes('b'))) {
    throw new PythonImportError(strings[0].line, `${what} must be a plain string (an f-string or bytes is computed at run time)`)
  }
  return strings.map((s) => s.value).join('')
}

function docText(s: string): string {
  return s.replace(/\s*\n\s*/g, ' ').trim()
}

/** `X = ...` or `X: Annotation = ...`: the variable and where the value starts. */
function assignment(tokens: Token[]): { variable: string; value: number } | null {
  if (tokens[0]?.kind !== 'name') return null
  if (isOp(tokens[1], '=')) return { variable: tokens[0].value, value: 2 }
  if (isOp(tokens[1], ':')) {
    let depth = 0
    for (let i = 2; i < tokens.length; i++) {
      const t = tokens[i]
      if (t.kind === 'op' && '([{'.includes(t.value)) depth++
      if (t.kind === 'op' && ')]}'.includes(t.value)) depth--
      if (depth === 0 && isOp(t, '=')) return { variable: tokens[0].value, value: i + 1 }
    }
  }
  return null
}

function splitSemicolons(statements: Statement[]): Statement[] {
  const out: Statement[] = []
  for (const s of statements) {
    let cur: Token[] = []
    for (const t of s.tokens) {
      if (isOp(t, ';')) {
        if (cur.length) out.push({ ...s, tokens: cur, line: cur[0].line })
        cur = []
      } else cur.push(t)
    }
    if (cur.length) out.push({ ...s, tokens: cur, line: cur[0].line })
  }
  return out
}

export function parseSecurityTags(source: string): PythonImport {
  let statements: Statement[]
  try {
    statements = splitSemicolons(tokenize(source))
  } catch (e) {
    if (e instanceof PythonSyntaxError) throw new PythonImportError(e.line, e.message.replace(/^line \d+: /, ''))
    throw e
  }
  const tags = new Map<string, TagDef>()
  const defs: TagDef[] = []
  const lists = new Map<string, { names: Token[]; line: number }>()
  let domain: { items: Array<{ variable: string; line: number }>; line: number } | null = null
  let last: TagDef | null = null
  let title: string | null = null

  const listItems = (expr: Token[], line: number): Array<{ variable: string; line: number }> => {
    if (expr.length === 1 && expr[0].kind === 'name' && lists.has(expr[0].value)) {
      return listItems(lists.get(expr[0].value)!.names, expr[0].line)
    }
    const open = expr[0]
    if (!(isOp(open, '[') || isOp(open, '(')) || closing(expr, 0) !== expr.length - 1) {
      throw new PythonImportError(
        open?.line ?? line,
        'SecurityDomain(...) must be given a list of tag names, e.g. SecurityDomain([SYSTEM_TAG, USER_TAG])',
      )
    }
    return splitArgs(expr.slice(1, -1)).map((item) => {
      if (isOp(item[0], '*')) {
        throw new PythonImportError(
          item[0].line,
          `${item.map((t) => t.value).join('')} is computed when Python runs: list each tag by its name instead`,
        )
      }
      if (item.length !== 1 || item[0].kind !== 'name') {
        throw new PythonImportError(item[0]?.line ?? line, `${item.map((t) => t.value).join(' ')} is not a tag name`)
      }
      return { variable: item[0].value, line: item[0].line }
    })
  }

  for (const [k, st] of statements.entries()) {
    const toks = st.tokens
    // The module docstring: a lone string before anything else names the system.
    if (k === 0 && toks.length > 0 && toks.every((t) => t.kind === 'string')) {
      title = docstringTitle(stringValue(toks, st.line, 'the module docstring'))
      continue
    }
    // An attribute docstring: a lone string right after a tag assignment.
    if (toks.every((t) => t.kind === 'string')) {
      if (last && k > 0 && statements[k - 1].tokens.length > 0 && last.line === statements[k - 1].line) {
        last.description = docText(stringValue(toks, st.line, 'a docstring'))
      }
      continue
    }
    last = null
    if (toks[0]?.kind === 'name' && (toks[0].value === 'from' || toks[0].value === 'import')) continue
    const asg = assignment(toks)
    const tagAt = findCall(toks, 'SecurityDomainTag')
    const domAt = findCall(toks, 'SecurityDomain')
    const value = asg ? toks.slice(asg.value) : []
    const tagCallIsValue =
      asg !== null && tagAt >= asg.value && (tagAt === asg.value || (tagAt === asg.value + 2 && isOp(toks[asg.value + 1], '.')))
    if (tagAt >= 0 && tagCallIsValue && closing(toks, tagAt + 1) === toks.length - 1) {
      const { positional, keywords } = callArgs(toks, tagAt)
      const nameExpr = keywords.get('name') ?? positional[0]
      if (!nameExpr) throw new PythonImportError(st.line, 'SecurityDomainTag(...) needs a name, e.g. SecurityDomainTag("user")')
      const name = stringValue(nameExpr, st.line, 'the tag name')
      const parentExpr = keywords.get('parent') ?? positional[1]
      let parentVar: string | null = null
      if (parentExpr && !(parentExpr.length === 1 && parentExpr[0].kind === 'name' && parentExpr[0].value === 'None')) {
        if (parentExpr.length !== 1 || parentExpr[0].kind !== 'name') {
          throw new PythonImportError(
            parentExpr[0]?.line ?? st.line,
            `parent must name a tag assigned above (got ${parentExpr.map((t) => t.value).join('')})`,
          )
        }
        parentVar = parentExpr[0].value
        if (!tags.has(parentVar)) {
          throw new PythonImportError(
            parentExpr[0].line,
            `parent=${parentVar} is not a tag assigned above this line (Python would raise NameError)`,
          )
        }
      }
      const trailing = st.comments.find((c) => c.line === st.endLine) ?? st.comments.find((c) => c.line === st.line)
      const def: TagDef = { variable: asg!.variable, name, parentVar, line: st.line, description: trailing ? trailing.value : '' }
      tags.set(def.variable, def)
      defs.push(def)
      last = def
      continue
    }
    if (tagAt >= 0) {
      throw new PythonImportError(
        toks[tagAt].line,
        'this SecurityDomainTag is built inside an expression, which only Python can evaluate: assign each tag to its own name, e.g. USER_TAG = SecurityDomainTag("user")',
      )
    }
    if (domAt >= 0) {
      if (domain)
        throw new PythonImportError(toks[domAt].line, `a second SecurityDomain(...) (the first is on line ${domain.line}): keep one`)
      const { positional, keywords } = callArgs(toks, domAt)
      const expr = keywords.get('tags') ?? positional[0]
      if (!expr) throw new PythonImportError(toks[domAt].line, 'SecurityDomain(...) needs its list of tags')
      domain = { items: listItems(expr, toks[domAt].line), line: toks[domAt].line }
      continue
    }
    if (
      asg &&
      (isOp(value[0], '[') || isOp(value[0], '(')) &&
      closing(value, 0) === value.length - 1 &&
      value.slice(1, -1).every((t) => t.kind === 'name' || isOp(t, ','))
    ) {
      lists.set(asg.variable, { names: value, line: st.line })
    }
  }

  if (defs.length === 0)
    throw new PythonImportError(1, 'no tag assignments found (expected lines like USER_TAG = SecurityDomainTag("user"))')
  const notes: string[] = []
  let chosen: TagDef[]
  if (domain) {
    chosen = domain.items.map(({ variable, line }) => {
      const def = tags.get(variable)
      if (!def) throw new PythonImportError(line, `${variable} is not a tag assigned above`)
      return def
    })
    const listed = new Set(chosen)
    const left = defs.filter((d) => !listed.has(d) && tags.get(d.variable) === d)
    if (left.length)
      notes.push(
        `Not in SecurityDomain([...]), so left out as superred would: ${left.map((d) => `${d.name} (line ${d.line})`).join(', ')}.`,
      )
  } else {
    chosen = [...tags.values()]
    notes.push('No SecurityDomain([...]) found: every tag assigned in the module is used, in order.')
  }
  const forest: Forest = {
    tags: chosen.map((d) => ({
      name: d.name,
      parent: d.parentVar === null ? null : tags.get(d.parentVar)!.name,
      description: d.description,
    })),
  }
  try {
    buildDomain(forest)
  } catch (e) {
    if (!(e instanceof SecurityDomainError)) throw e
    const def = e.code === 'duplicate_tag' ? chosen.filter((d) => d.name === e.tag)[1] : chosen.find((d) => d.name === e.tag)
    throw new PythonImportError(e.code === 'parent_not_in_domain' && domain ? domain.line : (def?.line ?? 1), e.message)
  }
  return { forest, notes, title }
}
