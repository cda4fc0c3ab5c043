/**
 * The protocol's routes over node:http, as a connect-style handler: usable by
 * a plain `http.createServer` and mountable under a path prefix in Vite's
 * dev and preview servers (connect strips the prefix from `req.url`).
 */
import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Target } from '../../core/engine'
import { ConfigBodySchema, EmptyBodySchema, QueryBodySchema, ResponseBodySchema, type Manifest } from '../../protocol/schemas'
import { applyCors, isLoopbackOrigin, requestOriginAllowed, type OriginPolicy } from '../http/cors'
import { hostAllowed, type HostPolicy } from '../http/hostCheck'
import { decodedSegments, pathOf } from '../http/requestPath'
import { bearerMatches, WrongTokenLimiter } from '../http/token'
import { DEFAULT_MAX_BODY_BYTES, ProtocolHttpError, readJson, sendError, sendJson, sendNoContent } from '../http/jsonIo'
import { manifestOf, observablesOf } from './manifest'
import { TargetSession } from './session'

export interface TargetServerOptions {
  /** Builds a fresh Target per session. Also called once to read the manifest. */
  readonly create: () => Target | Promise<Target>
  readonly name: string
  readonly description?: string
  readonly tagDescriptions?: Readonly<Record<string, string>>
  readonly tagReferences?: Readonly<Record<string, readonly string[]>>
  /** Sessions open at once; more get 503 `capacity`. Default 4. */
  readonly concurrency?: number
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  readonly token?: string
  /** Default: loopback origins only. */
  readonly allowedOrigins?: OriginPolicy
  /**
   * Host header names accepted besides loopback ones (127.x, localhost, [::1]), or true for any.
   * Default: loopback only, which stops DNS rebinding; a server reached by another name must list it.
   */
  readonly allowedHosts?: HostPolicy
  /** Idle sessions are torn down after this long without a request. Default 10 minutes. */
  readonly idleTimeoutMs?: number
  /** The `Retry-After` of a 503 `capacity`, in seconds. Default 1. */
  readonly retryAfterSeconds?: number
  readonly maxBodyBytes?: number
  /** One line per request (method, path, status): never headers or bodies, which may hold secrets or payloads. */
  readonly log?: (line: string) => void
}

export type ConnectHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void

export interface TargetHandler extends ConnectHandler {
  /** Tears down every session and stops the expiry timer. */
  close(): Promise<void>
  /** Open sessions (for tests and capacity checks). */
  readonly sessionCount: number
}

const DEFAULT_IDLE_MS = 10 * 60 * 1000

export function createTargetHandler(options: TargetServerOptions): TargetHandler {
  const concurrency = options.concurrency ?? 4
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error('concurrency must be an integer of at least 1')
  const idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_MS
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const origins = options.allowedOrigins ?? isLoopbackOrigin
  const sessions = new Map<string, TargetSession>()
  let manifest: Promise<Manifest> | null = null
  let sweeper: ReturnType<typeof setInterval> | null = null

  const readManifest = (): Promise<Manifest> => {
    manifest ??= (async () => {
      const probe = await options.create()
      try {
        return manifestOf(probe, {
          name: options.name,
          description: options.description,
          tagDescriptions: options.tagDescriptions,
          tagReferences: options.tagReferences,
          concurrency,
        })
      } finally {
        await probe.teardown()
      }
    })()
    manifest.catch(() => {
      manifest = null
    })
    return manifest
  }

  const expire = (now: number) => {
    for (const s of sessions.values()) {
      if (now - s.lastSeen > idleMs) {
        sessions.delete(s.id)
        void s.close('session expired').catch(() => undefined)
      }
    }
    if (sessions.size === 0 && sweeper !== null) {
      clearInterval(sweeper)
      sweeper = null
    }
  }

  const startSweeper = () => {
    if (sweeper !== null) return
    sweeper = setInterval(() => expire(Date.now()), Math.max(10, Math.min(idleMs / 2, 30_000)))
    // Never keeps a process (a test run, the CLI) alive on its own.
    sweeper.unref?.()
  }

  const session = (sid: string): TargetSession => {
    expire(Date.now())
    const s = sessions.get(sid)
    if (!s) throw new ProtocolHttpError(404, 'unknown_session', `no session '${sid}' (unknown, deleted or expired)`)
    s.lastSeen = Date.now()
    return s
  }

  async function route(req: IncomingMessage, res: ServerResponse, method: string, parts: string[]): Promise<void> {
    if (parts.length === 1 && parts[0] === 'manifest') {
      if (method !== 'GET') throw notAllowed(method)
      return sendJson(res, 200, await readManifest())
    }
    if (parts[0] !== 'sessions') throw new ProtocolHttpError(404, 'not_found', `no endpoint ${method} /${parts.join('/')}`)
    if (parts.length === 1) {
      if (method !== 'POST') throw notAllowed(method)
      await readJson(req, EmptyBodySchema, maxBody)
      expire(Date.now())
      if (sessions.size >= concurrency) {
        const after = String(options.retryAfterSeconds ?? 1)
        throw new ProtocolHttpError(503, 'capacity', `${concurrency} sessions are open; retry later`, { 'Retry-After': after })
      }
      let target: Target
      try {
        target = await options.create()
      } catch (e) {
        throw new ProtocolHttpError(500, 'target_error', `the target could not be created: ${(e as Error).message}`)
      }
      const id = randomUUID()
      sessions.set(id, new TargetSession(id, target, Date.now()))
      startSweeper()
      return sendJson(res, 201, { session_id: id })
    }
    const sid = parts[1]
    if (parts.length === 2) {
      if (method !== 'DELETE') throw notAllowed(method)
      const s = sessions.get(sid)
      sessions.delete(sid)
      // 204 also for an unknown or expired session: teardown is idempotent.
      await s?.close('session deleted')
      return sendNoContent(res)
    }
    if (parts.length === 3 && parts[2] === 'observables') {
      const s = session(sid)
      if (method !== 'GET') throw notAllowed(method)
      return sendJson(res, 200, { observables: observablesOf(s.target) })
    }
    if (method !== 'POST') {
      session(sid)
      throw notAllowed(method)
    }
    // The session's own endpoints are one segment long (`/sessions/{sid}/runs`); longer paths match none of them.
    const rest = parts.length === 3 ? parts[2] : null
    if (rest === 'config') {
      const s = session(sid)
      const body = await readJson(req, ConfigBodySchema, maxBody)
      await s.setConfig(body.name, body.value)
      return sendNoContent(res)
    }
    if (rest === 'runs') {
      const s = session(sid)
      await readJson(req, EmptyBodySchema, maxBody)
      return sendJson(res, 200, await s.startRun())
    }
    if (parts.length === 5 && parts[2] === 'runs' && parts[4] === 'responses') {
      const s = session(sid)
      const body = await readJson(req, ResponseBodySchema, maxBody)
      return sendJson(res, 200, await s.respond(parts[3], body.call_id, body.response))
    }
    if (rest === 'query') {
      const s = session(sid)
      const body = await readJson(req, QueryBodySchema, maxBody)
      return sendJson(res, 200, { value: await s.query(body.name, body.params) })
    }
    if (rest === 'reset') {
      const s = session(sid)
      await readJson(req, EmptyBodySchema, maxBody)
      await s.reset()
      return sendNoContent(res)
    }
    session(sid)
    throw new ProtocolHttpError(404, 'not_found', `no endpoint ${method} /${parts.join('/')}`)
  }

  const wrongTokens = new WrongTokenLimiter()
  function checkToken(req: IncomingMessage, token: string): void {
    const header = req.headers.authorization
    const address = req.socket.remoteAddress ?? ''
    const wait = wrongTokens.waitSeconds(address)
    if (wait > 0) {
      throw new ProtocolHttpError(429, 'too_many_attempts', `too many wrong tokens from this address: retry in ${wait} s`, {
        'Retry-After': String(wait),
      })
    }
    if (bearerMatches(header, token)) return
    // A missing header is no guess; a wrong one spends one of the address's tries.
    if (header !== undefined) wrongTokens.failed(address)
    throw new ProtocolHttpError(401, 'unauthorized', 'this target requires Authorization: Bearer <token>', { 'WWW-Authenticate': 'Bearer' })
  }

  /** One request past the Host and CORS checks; never rejects (a failure is answered). No closures per request. */
  async function serve(req: IncomingMessage, res: ServerResponse, method: string, path: string): Promise<void> {
    try {
      if (options.token !== undefined) checkToken(req, options.token)
      await route(req, res, method, decodedSegments(path))
    } catch (e) {
      const error = e instanceof ProtocolHttpError ? e : new ProtocolHttpError(500, 'internal', (e as Error)?.message ?? String(e))
      if (!res.headersSent) sendError(res, error)
      else res.end()
    }
  }

  // The Host header last allowed: a client sends the same one on every request of a session.
  let allowedHost: string | null = null
  const handler = ((req, res) => {
    const method = req.method ?? 'GET'
    const host = req.headers.host
    if (host === undefined || host !== allowedHost) {
      if (!hostAllowed(req, options.allowedHosts ?? [])) {
        sendError(res, new ProtocolHttpError(403, 'forbidden_host', `host ${JSON.stringify(host ?? '')} is not allowed here`))
        return
      }
      if (host !== undefined) allowedHost = host
    }
    if (applyCors(req, res, origins)) return
    const path = pathOf(req.url ?? '/')
    if (!requestOriginAllowed(req, origins)) {
      // Before the token, the body or the route: a page on another origin gets no effect at all.
      sendError(
        res,
        new ProtocolHttpError(
          403,
          'forbidden_origin',
          `origin ${JSON.stringify(req.headers.origin)} is not allowed here (a page is, from a loopback origin or one given with --allow-origin)`,
        ),
      )
      options.log?.(`${method} ${path} 403`)
      return
    }
    const handled = serve(req, res, method, path)
    // No promise per request for a log nobody reads.
    const log = options.log
    if (log) void handled.finally(() => log(`${method} ${path} ${res.statusCode}`))
  }) as TargetHandler

  Object.defineProperty(handler, 'sessionCount', { get: () => sessions.size })
  handler.close = async () => {
    if (sweeper !== null) clearInterval(sweeper)
    sweeper = null
    const all = [...sessions.values()]
    sessions.clear()
    await Promise.allSettled(all.map((s) => s.close('server closed')))
  }
  return handler
}

function notAllowed(method: string): ProtocolHttpError {
  return new ProtocolHttpError(405, 'method_not_allowed', `${method} is not allowed here`)
}
