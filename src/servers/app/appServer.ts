/**
 * The production server of `redscope view` and `npm start`: node:http around
 * the built app (dist/), the reference targets at /targets/<name>/ and,
 * optionally, a results folder read-only at /api/results. It sends the app's
 * content security policy as a header, refuses Host names it does not know
 * (DNS rebinding, as the target servers do), and, when given a token (required
 * beyond loopback), answers nothing without it.
 */
import { realpath } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { hostAllowed, isLoopbackHostname, type HostPolicy, type TargetHandler } from '../target'
import { DEMO_TARGETS_PREFIX, demoTargetHandlers } from '../../reference-targets/vitePlugin'
import { AUTH_CHALLENGE, tokenPresented, WrongTokenLimiter } from '../http/token'
import { CONTENT_SECURITY_POLICY_HEADER } from './contentSecurityPolicy'
import { sendJson } from '../http/jsonIo'
import { pathOf } from '../http/requestPath'
import { sendText } from './httpAnswers'
import { createResultsApi, RESULTS_API } from './resultsApi'
import { createStaticApp } from './staticApp'

export interface AppServerOptions {
  /** The built app: a folder with index.html and assets/. */
  readonly appDir: string
  /** A results folder to serve read-only at /api/results; none when absent. */
  readonly resultsDir?: string
  /** Mount the reference targets at /targets/<name>/ (default true). */
  readonly demoTargets?: boolean
  /** Every request must present it (HTTP Basic password, or Bearer). */
  readonly token?: string
  /**
   * Host names accepted besides loopback ones. Default: loopback only, or any
   * name when a token is set (a rebinding page cannot present the token).
   */
  readonly allowedHosts?: HostPolicy
  /** One line per request: method, path, status. Never headers (the token) or bodies. */
  readonly log?: (line: string) => void
}

export interface RunningAppServer {
  readonly url: string
  readonly port: number
  readonly host: string
  readonly server: Server
  /** The results folder's name, when one is served. */
  readonly resultsLabel: string | null
  close(): Promise<void>
}

/** Whether an address to listen on stays on this machine. */
export function isLoopbackAddress(host: string): boolean {
  return isLoopbackHostname(host) || host === '::1' || host === '[::1]'
}

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY_HEADER,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
}

export class AppServerError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'AppServerError'
  }
}

export async function startAppServer(options: AppServerOptions, port = 0, host = '127.0.0.1'): Promise<RunningAppServer> {
  if (!isLoopbackAddress(host) && !options.token) {
    throw new AppServerError(`${host} is reachable beyond this machine: a token is required there`)
  }
  let realApp: string
  try {
    realApp = await realpath(options.appDir)
  } catch {
    throw new AppServerError(`the built app is missing (${options.appDir})`)
  }
  let results = null
  if (options.resultsDir !== undefined) {
    try {
      results = createResultsApi(await realpath(options.resultsDir))
    } catch {
      throw new AppServerError(`no results folder at ${options.resultsDir}`)
    }
  }
  const hosts: HostPolicy = options.allowedHosts ?? (options.token ? true : [])
  const targets: Map<string, TargetHandler> = options.demoTargets === false ? new Map() : demoTargetHandlers(hosts)
  const app = createStaticApp(realApp)
  const wrongTokens = new WrongTokenLimiter()

  const handle = async (req: IncomingMessage, res: ServerResponse, path: string) => {
    const target = /^\/targets\/([^/]+)(\/.*)?$/.exec(path)
    const handler = target ? targets.get(target[1]) : undefined
    if (handler) {
      // The protocol handler expects paths below its mount point, as Vite's connect gives them.
      req.url = (req.url ?? '/').slice(`${DEMO_TARGETS_PREFIX}/${target![1]}`.length) || '/'
      return handler(req, res)
    }
    if (path === RESULTS_API || path.startsWith(`${RESULTS_API}/`)) {
      if (results) return results.handle(req, res, path)
      // The Results tab asks on every load whether a folder is served: "none" is an answer, not a 404 in the console.
      if (path === RESULTS_API) {
        res.setHeader('Cache-Control', 'no-store')
        return sendJson(res, 200, { label: null })
      }
      return sendText(res, 404, 'no results folder is served here\n', { 'Cache-Control': 'no-store' })
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'method not allowed\n', { Allow: 'GET, HEAD' })
    return app(req, res, path)
  }

  const server = createServer((req, res) => {
    const path = pathOf(req.url ?? '/')
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v)
    const done = () => options.log?.(`${req.method} ${path} ${res.statusCode}`)
    if (!hostAllowed(req, hosts)) {
      sendText(res, 403, `host ${JSON.stringify(req.headers.host ?? '')} is not allowed here\n`)
      return done()
    }
    if (options.token !== undefined) {
      const address = req.socket.remoteAddress ?? ''
      const wait = wrongTokens.waitSeconds(address)
      if (wait > 0) {
        sendText(res, 429, `too many wrong tokens from this address: retry in ${wait} s\n`, { 'Retry-After': String(wait) })
        return done()
      }
      if (!tokenPresented(req.headers.authorization, options.token)) {
        // A missing header is no guess (a browser's first request); a wrong one spends one of the address's tries.
        if (req.headers.authorization !== undefined) wrongTokens.failed(address)
        sendText(res, 401, 'this server requires its token (the password; any user name)\n', { 'WWW-Authenticate': AUTH_CHALLENGE })
        return done()
      }
    }
    handle(req, res, path)
      .catch((e: unknown) => {
        if (!res.headersSent) sendText(res, 500, `internal error: ${(e as Error)?.message ?? String(e)}\n`)
        else res.end()
      })
      .finally(done)
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return {
    url: `http://${shownHost}:${address.port}/`,
    port: address.port,
    host: address.address,
    server,
    resultsLabel: results?.label ?? null,
    close: async () => {
      await Promise.allSettled([...targets.values()].map((t) => t.close()))
      await new Promise<void>((done) => {
        server.close(() => done())
        server.closeAllConnections()
      })
    },
  }
}
