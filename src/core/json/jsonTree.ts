/**
 * What the viewer needs to show a payload as a folding JSON tree: which
 * values are JSON (objects and arrays, and strings that parse as one, such as
 * a tool call's arguments), which nodes start open, and how to copy one.
 * Pure, bounded work: nothing here walks more of a value than it must, so a
 * 100,000-entry environment snapshot costs no more than a small one until it
 * is unfolded.
 */
import { parseBoundedJson } from './boundedJson'

export type JsonContainer = Record<string, unknown> | unknown[]

/** A string longer than this is left as text: parsing megabytes on every step change would stall the viewer. */
export const JSON_STRING_PARSE_MAX = 2_000_000
/** Nodes this deep or deeper, or with more descendants than the budget below, start folded. */
export const OPEN_DEPTH = 4
export const OPEN_NODE_BUDGET = 40
/** Lines (entries) a value shows unfolded at first, at most, beyond its root's own entries. */
export const OPEN_LINE_BUDGET = 60
/** Entries of one object or array rendered at a time; the rest behind "show more". */
export const ENTRY_PAGE = 100

export function isContainer(value: unknown): value is JsonContainer {
  return value !== null && typeof value === 'object'
}

/**
 * The object or array a string holds, when it is one: `{"function": ...}` as
 * AgentDojo writes a tool call's request. Scalars ("42", "true", "\"x\"") stay
 * strings: read as JSON they would only lose their quotes. Too long, too deep
 * or not JSON: undefined, and the string is shown as text.
 */
export function jsonInString(text: string): JsonContainer | undefined {
  if (text.length < 2 || text.length > JSON_STRING_PARSE_MAX) return undefined
  let i = 0
  while (i < text.length && /\s/.test(text[i])) i++
  const first = text[i]
  if (first !== '{' && first !== '[') return undefined
  let j = text.length - 1
  while (j > i && /\s/.test(text[j])) j--
  if (text[j] !== (first === '{' ? '}' : ']')) return undefined
  try {
    const parsed: unknown = parseBoundedJson(text)
    return isContainer(parsed) ? parsed : undefined
  } catch {
    return undefined
  }
}

/** The tree to show for a payload, if it is JSON at all; `fromString` when it was text holding JSON. */
export function jsonTreeOf(value: unknown): { root: JsonContainer; fromString: boolean } | null {
  if (isContainer(value)) return { root: value, fromString: false }
  if (typeof value === 'string') {
    const root = jsonInString(value)
    if (root) return { root, fromString: true }
  }
  return null
}

/** Entries in display order: array indices, or an object's own keys. */
export function entriesOf(value: JsonContainer, from = 0, count = Number.POSITIVE_INFINITY): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = []
  if (Array.isArray(value)) {
    const end = Math.min(value.length, from + count)
    for (let i = from; i < end; i++) out.push([String(i), value[i]])
    return out
  }
  let k = 0
  for (const key of Object.keys(value)) {
    if (k >= from + count) break
    if (k++ >= from) out.push([key, value[key]])
  }
  return out
}

export function sizeOf(value: JsonContainer): number {
  return Array.isArray(value) ? value.length : Object.keys(value).length
}

/**
 * Descendants of a value (strings holding JSON count as their tree), counting
 * stops once past `limit`: the answer is min(true count, limit + 1).
 */
export function countNodes(value: unknown, limit: number): number {
  let n = 0
  const stack: unknown[] = [value]
  while (stack.length > 0 && n <= limit) {
    const v = stack.pop()
    const inner = typeof v === 'string' && v.length < 10_000 ? jsonInString(v) : undefined
    const node = inner ?? v
    if (!isContainer(node)) continue
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (++n > limit) break
      stack.push(child)
    }
  }
  return Math.min(n, limit + 1)
}

/** The key of a node below the root: its keys joined by a separator no JSON key is likely to hold. */
export function childPath(path: string, key: string): string {
  return path === '' ? key : `${path}\u0000${key}`
}

/** The object or array an entry shows as: itself, or what a string of JSON holds (short strings only: this runs per entry). */
function asNode(value: unknown): JsonContainer | undefined {
  if (isContainer(value)) return value
  return typeof value === 'string' && value.length <= 10_000 ? jsonInString(value) : undefined
}

/**
 * The nodes that start unfolded, by path: the root, then level by level the
 * small nodes (at most OPEN_NODE_BUDGET descendants) while the lines they add
 * fit in `budget`, down to OPEN_DEPTH. A level opens whole or not at all, so
 * siblings look alike: a tool call and its arguments read at once; thirty
 * transactions show as thirty folded rows with their sizes; a big store in a
 * snapshot starts folded while the small ones beside it are open.
 */
export function initiallyOpenPaths(root: JsonContainer, budget = OPEN_LINE_BUDGET): Set<string> {
  const open = new Set<string>([''])
  let used = Math.min(sizeOf(root), ENTRY_PAGE)
  let level: Array<{ path: string; value: JsonContainer }> = [{ path: '', value: root }]
  for (let depth = 1; depth < OPEN_DEPTH && level.length > 0; depth++) {
    const next: Array<{ path: string; value: JsonContainer }> = []
    let cost = 0
    for (const parent of level) {
      for (const [key, child] of entriesOf(parent.value, 0, ENTRY_PAGE)) {
        const node = asNode(child)
        if (!node || countNodes(node, OPEN_NODE_BUDGET) > OPEN_NODE_BUDGET) continue
        next.push({ path: childPath(parent.path, key), value: node })
        cost += Math.min(sizeOf(node), ENTRY_PAGE)
      }
      if (used + cost > budget) return open
    }
    used += cost
    for (const n of next) open.add(n.path)
    level = next
  }
  return open
}

/** Pretty JSON of a node for the clipboard; never throws (a cycle or an overflow says so). */
export function jsonCopyText(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value)
  } catch (e) {
    return `[this value cannot be copied as JSON: ${(e as Error).message}]`
  }
}

/** The folded summary of a node: `{ 3 keys }`, `[ 120 items ]`. */
export function foldedSummary(value: JsonContainer): string {
  const n = sizeOf(value)
  return Array.isArray(value)
    ? `[ ${n.toLocaleString('en-US')} ${n === 1 ? 'item' : 'items'} ]`
    : `{ ${n.toLocaleString('en-US')} ${n === 1 ? 'key' : 'keys'} }`
}

/** A scalar as JSON shows it (strings are shown as their text, by the caller). */
export function scalarText(value: unknown): string {
  if (value === null) return 'null'
  if (value === undefined) return 'undefined'
  return String(value)
}
