/**
 * A results tree as comparable data: every file by path, JSON parsed, with
 * what differs between two runs of the same measurement masked (clock
 * readings, generated event ids). Two trees of the same sweep, one run in
 * one process and one merged from shards, give equal snapshots. Used by the
 * tests that say so.
 */
import { joinPath, type Storage } from './storage'

/** Keys whose values are clock readings or generated ids. */
const MASKED = new Set(['started_at', 'ended_at', 'completed_at', 'timestamp', 'duration_s', 'event_id', 'ts', 'createdAt'])

function mask(value: unknown, extra: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((v) => mask(v, extra))
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, MASKED.has(k) || extra.has(k) ? '<masked>' : mask(v, extra)]))
}

function parsed(path: string, text: string, extra: ReadonlySet<string>): unknown {
  if (path.endsWith('.json')) return mask(JSON.parse(text), extra)
  // Diagnostics logs: one JSON object a line.
  if (path.endsWith('.log'))
    return text
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => mask(JSON.parse(l), extra))
  return text
}

/** `{path: content}` for every file under `root`, sorted by path; `alsoMask` names more keys to mask. */
export async function treeSnapshot(storage: Storage, root = '', alsoMask: readonly string[] = []): Promise<Record<string, unknown>> {
  const extra = new Set(alsoMask)
  const files: string[] = []
  const stack = [root]
  while (stack.length > 0) {
    const dir = stack.pop()!
    for (const e of await storage.list(dir)) {
      const p = joinPath(dir, e.name)
      if (e.kind === 'dir') stack.push(p)
      else files.push(p)
    }
  }
  files.sort()
  const out: Record<string, unknown> = {}
  for (const f of files) out[f] = parsed(f, await storage.readText(f), extra)
  return out
}
