/**
 * The built app (dist/) over node:http: its files, and index.html for any
 * other page address (the app routes on the client: /results/..., /run).
 * index.html is never cached (a rebuild must show at once); hashed assets are
 * cached for good.
 */
import { stat } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { join } from 'node:path'
import { resolveUnder } from './pathGuard'
import { sendFile, sendText } from './httpAnswers'

export type StaticHandler = (req: IncomingMessage, res: ServerResponse, path: string) => Promise<void>

/** A page address: no file extension in its last segment. Missing scripts and styles stay 404s. */
const isPageAddress = (path: string) => !/\.[A-Za-z0-9]+$/.test(path.split('/').pop() ?? '')

export function createStaticApp(realAppDir: string): StaticHandler {
  const index = join(realAppDir, 'index.html')
  const sendIndex = async (req: IncomingMessage, res: ServerResponse) => {
    const s = await stat(index)
    sendFile(req, res, index, s.size, { 'Cache-Control': 'no-cache' })
  }
  return async (req, res, path) => {
    if (path === '/' || path === '/index.html') return sendIndex(req, res)
    const found = await resolveUnder(realAppDir, path)
    if (found.ok && found.kind === 'file') {
      const immutable = path.startsWith('/assets/')
      return sendFile(req, res, found.path, found.size, { 'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache' })
    }
    // Refused paths (traversal, dot-files, symlinks out) are never answered with the app: the refusal shows.
    if (!found.ok && found.status !== 404) return sendText(res, found.status, `refused: ${found.reason}\n`)
    if (!found.ok && found.reason === 'dot-file') return sendText(res, 404, 'not found\n')
    if (isPageAddress(path)) return sendIndex(req, res)
    return sendText(res, 404, 'not found\n')
  }
}
