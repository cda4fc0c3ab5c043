/**
 * A results folder, read-only, at one fixed address beside the app:
 *   GET /api/results              {label}: which folder is served (its name only)
 *   GET /api/results/list/<dir>   {entries: [{name, kind}]}: a folder's children (dot-entries and links out hidden)
 *   GET /api/results/files/<path> a file's bytes
 * Everything goes through the path guard. Answers are never cached: a writer
 * (a run, superred) adds files while the app polls.
 */
import { readdir, realpath, stat } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { basename, join } from 'node:path'
import { isInside, resolveUnder } from './pathGuard'
import { sendJson } from '../http/jsonIo'
import { sendFile, sendText } from './httpAnswers'

export const RESULTS_API = '/api/results'

// A file opened directly in a tab is inert: no script, no plugin, no navigation.
const FILE_HEADERS = { 'Cache-Control': 'no-store', 'Content-Security-Policy': "default-src 'none'; sandbox" }

export interface ResultsApi {
  readonly label: string
  /** Answers a path under RESULTS_API (the prefix included). */
  handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>
}

async function entriesOf(realRoot: string, dir: string): Promise<{ name: string; kind: 'file' | 'dir' }[]> {
  const out: { name: string; kind: 'file' | 'dir' }[] = []
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.name.startsWith('.')) continue
    if (e.isFile()) out.push({ name: e.name, kind: 'file' })
    else if (e.isDirectory()) out.push({ name: e.name, kind: 'dir' })
    else if (e.isSymbolicLink()) {
      // Listed only when it stays inside the folder, as the file answer would allow.
      try {
        const real = await realpath(join(dir, e.name))
        if (!isInside(realRoot, real)) continue
        const s = await stat(real)
        if (s.isFile() || s.isDirectory()) out.push({ name: e.name, kind: s.isFile() ? 'file' : 'dir' })
      } catch {
        // A dangling link is not an entry.
      }
    }
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

export function createResultsApi(realRoot: string, label = basename(realRoot)): ResultsApi {
  return {
    label,
    async handle(req, res, path) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'read-only\n', { Allow: 'GET, HEAD' })
      const rest = path.slice(RESULTS_API.length)
      res.setHeader('Cache-Control', 'no-store')
      if (rest === '' || rest === '/') return sendJson(res, 200, { label })
      const files = /^\/files(\/.*)$/.exec(rest)
      const list = /^\/list(\/.*)?$/.exec(rest)
      const found = await resolveUnder(realRoot, files?.[1] ?? list?.[1] ?? '/')
      if (!files && !list) return sendText(res, 404, 'not found\n')
      if (!found.ok) return sendText(res, found.status, found.status === 404 ? 'not found\n' : `refused: ${found.reason}\n`)
      if (files) {
        if (found.kind !== 'file') return sendText(res, 404, 'not a file\n')
        return sendFile(req, res, found.path, found.size, {
          ...FILE_HEADERS,
          'Content-Type': found.path.endsWith('.json') ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8',
        })
      }
      if (found.kind !== 'dir') return sendText(res, 404, 'not a folder\n')
      return sendJson(res, 200, { entries: await entriesOf(realRoot, found.path) })
    },
  }
}
