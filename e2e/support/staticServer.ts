/**
 * A plain static file server over loopback, like `superred serve`, optionally with CORS; with `site`, like a
 * static host (GitHub Pages, S3): real content types, `nosniff`, and a folder's index.html at its address.
 */
import { createReadStream, existsSync, statSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join, normalize } from 'node:path'

const SITE_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
}

export async function serveFolder(
  root: string,
  opts: { cors: boolean; site?: boolean },
): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (opts.cors) res.setHeader('Access-Control-Allow-Origin', '*')
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '')
    let file = join(root, path)
    if (opts.site && existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html')
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
      res.statusCode = 404
      res.end('not found')
      return
    }
    const ext = /\.[a-z]+$/.exec(file)?.[0] ?? ''
    if (opts.site) res.setHeader('X-Content-Type-Options', 'nosniff')
    res.setHeader(
      'Content-Type',
      opts.site
        ? (SITE_TYPES[ext] ?? 'application/octet-stream')
        : file.endsWith('.json')
          ? 'application/json'
          : 'application/octet-stream',
    )
    createReadStream(file).pipe(res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) }
}
