/**
 * FOREST.json (the CLI's format: `{"tags": [{"name", "parent", "description", "references"?}]}`)
 * read and written in the browser. A bad file gets one message naming the
 * line and column of a syntax error, or the field (`tags[3].parent`) of a
 * wrong value, or the tag superred would refuse.
 */
import { decodeUtf8, InvalidUtf8Error } from '../core/json'
import { buildDomain, CheckedForestSchema, describeForestIssues, SecurityDomainError, type Forest } from '../core/tags'

export class ForestFileError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ForestFileError'
  }
}

/** "line 3, column 5" for a character offset. */
export function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset)
  const line = before.split('\n').length
  return `line ${line}, column ${offset - before.lastIndexOf('\n')}`
}

/** JSON.parse with a message that names where the syntax breaks. */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (e) {
    const msg = (e as Error).message
    const lc = /\(line (\d+) column (\d+)\)/.exec(msg)
    const pos = /at position (\d+)/.exec(msg)
    const where = lc ? `line ${lc[1]}, column ${lc[2]}` : pos ? lineColumn(text, Number(pos[1])) : null
    const what = msg
      .replace(/\s*\(line \d+ column \d+\)/, '')
      .replace(/ in JSON at position \d+/, '')
      .replace(/^JSON\.parse: /, '')
    throw new ForestFileError(`not valid JSON${where ? ` at ${where}` : ''}: ${what}`)
  }
}

/** A file's text, decoded strictly: a byte that is not UTF-8 is refused by offset, never read as U+FFFD. */
export async function fileText(file: Blob): Promise<string> {
  try {
    return decodeUtf8(new Uint8Array(await file.arrayBuffer()))
  } catch (e) {
    if (e instanceof InvalidUtf8Error) throw new ForestFileError(e.message)
    throw e
  }
}

export function parseForestJson(text: string): Forest {
  const json = parseJsonText(text)
  const parsed = CheckedForestSchema.safeParse(json)
  if (!parsed.success) throw new ForestFileError(`not a forest file: ${describeForestIssues(parsed.error)}`)
  try {
    buildDomain(parsed.data)
  } catch (e) {
    if (!(e instanceof SecurityDomainError)) throw e
    const at =
      e.code === 'duplicate_tag'
        ? parsed.data.tags.findIndex((t, i) => t.name === e.tag && parsed.data.tags.findIndex((u) => u.name === e.tag) < i)
        : parsed.data.tags.findIndex((t) => t.name === e.tag)
    throw new ForestFileError(`tags[${at}]: ${e.message}`)
  }
  return parsed.data
}

/** One tag per line: diffs well and reads well. */
export function forestToJson(forest: Forest): string {
  // references only when a tag has some: a forest without them writes exactly as before.
  const lines = forest.tags.map(
    (t) =>
      `    ${JSON.stringify({
        name: t.name,
        parent: t.parent,
        description: t.description,
        ...(t.references && t.references.length > 0 ? { references: t.references } : {}),
      })}`,
  )
  return `{\n  "tags": [\n${lines.join(',\n')}\n  ]\n}\n`
}
