/**
 * Loopback servers for the run console's e2e tests, all real node:http:
 * - a target behind a proxy that drops the connection mid-run for sessions
 *   configured with `fault=die` (everything else, CORS included, passes through);
 * - a target that allows only another origin (CORS refusal);
 * - a target that serves a claim of its own in its manifest, under a name of its own;
 * - an OpenAI-compatible chat server with CORS (src/testing/chatServer.ts).
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createTargetServer, type RunningTargetServer } from '../../src/servers/target'
import { referenceTargetOptions } from '../../src/reference-targets'

export interface Running {
  readonly url: string
  close(): Promise<void>
}

function forward(upstream: URL, req: IncomingMessage, res: ServerResponse, body: Buffer): void {
  const out = request(
    {
      host: upstream.hostname,
      port: upstream.port,
      method: req.method,
      path: req.url,
      headers: { ...req.headers, host: upstream.host, 'content-length': String(body.length) },
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    },
  )
  out.on('error', () => res.destroy())
  out.end(body)
}

/** The chatbot reference target behind a proxy: a session with config `fault=die` has its connection cut at its first answer to a pause. */
export async function startDyingTarget(): Promise<Running> {
  const target: RunningTargetServer = await createTargetServer(referenceTargetOptions('chatbot')).listen(0)
  const upstream = new URL(target.url)
  const dying = new Set<string>()
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const path = req.url ?? '/'
      const sid = /^\/sessions\/([^/]+)/.exec(path)?.[1]
      if (sid && req.method === 'POST' && path.endsWith('/config') && body.toString().includes('"fault"')) {
        dying.add(sid)
        res.writeHead(204, { 'access-control-allow-origin': req.headers.origin ?? '*', vary: 'Origin' })
        return res.end()
      }
      if (sid && dying.has(sid) && req.method === 'POST' && /\/runs\/[^/]+\/responses$/.test(path)) return req.socket.destroy()
      forward(upstream, req, res, body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
      await target.close()
    },
  }
}

/** A target that lets in only https://elsewhere.example: a page on loopback is refused by CORS. */
export async function startRefusingTarget(): Promise<Running> {
  const target = await createTargetServer(referenceTargetOptions('chatbot', { allowedOrigins: ['https://elsewhere.example'] })).listen(0)
  return { url: target.url, close: () => target.close() }
}

/**
 * The chatbot reference target behind a proxy that names it `name` and serves a claim of its own in its manifest
 * (as `redscope-bridge serve --claim` does; the served tasks themselves are not answered: enough for what the
 * console lets start). Two of them are two targets with different served claims.
 */
export async function startClaimServingTarget(name: string, claim: { name: string; goals: readonly string[] }): Promise<Running> {
  const target = await createTargetServer(referenceTargetOptions('chatbot')).listen(0)
  const upstream = new URL(target.url)
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      if (req.method !== 'GET' || req.url !== '/manifest') return forward(upstream, req, res, body)
      const out = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: 'GET',
          path: '/manifest',
          headers: { ...req.headers, host: upstream.host },
        },
        (answer) => {
          const parts: Buffer[] = []
          answer.on('data', (c: Buffer) => parts.push(c))
          answer.on('end', () => {
            const manifest = {
              ...JSON.parse(Buffer.concat(parts).toString()),
              name,
              claim: { name: claim.name, description: '', tasks: claim.goals.map((goal) => ({ goal })) },
            }
            const text = JSON.stringify(manifest)
            res.writeHead(answer.statusCode ?? 200, { ...answer.headers, 'content-length': String(Buffer.byteLength(text)) })
            res.end(text)
          })
        },
      )
      out.on('error', () => res.destroy())
      out.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
      await target.close()
    },
  }
}
