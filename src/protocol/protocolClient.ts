/**
 * The one place that talks HTTP to a target: fetch with a per-request
 * timeout, a bearer token sent to this target only, and every answer parsed
 * with the protocol's zod schemas. Every failure is a TargetRequestError whose
 * message starts with the endpoint, e.g.
 * `POST http://127.0.0.1:8801/sessions/s1/runs: answered 500 internal: boom`.
 */
import type { z } from 'zod'
import { whenAborted } from '../core/engine'
import { jsonDeeperThan, MAX_JSON_DEPTH } from '../core/json'
import { formatPath } from '../core/tags'
import { parseWire } from './hotMessages'
import { ErrorBodySchema } from './schemas'

export interface ProtocolClientOptions {
  /** Sent as `Authorization: Bearer <token>` to this target only; never logged or written anywhere. */
  readonly token?: string
  /** Per request, body included. Default 2 minutes: targets may call slow LLMs. */
  readonly requestTimeoutMs?: number
  /** Defaults to the global fetch (browser or Node). */
  readonly fetch?: typeof fetch
  /** An answer longer than this is refused unread (default 32 MiB: a 10 MB observation fits, a flood does not). */
  readonly maxResponseBytes?: number
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 120_000
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 2 ** 20

const megabytes = (n: number) => `${(n / 2 ** 20).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB`

export class TooLargeError extends Error {
  constructor(max: number) {
    super(`more than ${megabytes(max)} (the limit for one answer); the rest was not read`)
    this.name = 'TooLargeError'
  }
}

/** The body as text, refusing (and cancelling) it once it passes `max` bytes, so a flood never fills memory. */
export async function readCapped(response: Response, max: number): Promise<string> {
  const length = response.headers.get('content-length')
  const declared = length === null ? Number.NaN : Number(length)
  if (Number.isFinite(declared) && declared > max) {
    void response.body?.cancel().catch(() => undefined)
    throw new TooLargeError(max)
  }
  // A declared length within the cap is what arrives (fetch holds the server to it), unless the
  // body is compressed, when the declared length is the compressed one: read it in one go then.
  const encoding = response.headers.get('content-encoding')
  if (!response.body || (Number.isFinite(declared) && (encoding === null || encoding === 'identity'))) return response.text()
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  const parts: string[] = []
  let bytes = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    bytes += value.byteLength
    if (bytes > max) {
      void reader.cancel().catch(() => undefined)
      throw new TooLargeError(max)
    }
    parts.push(decoder.decode(value, { stream: true }))
  }
  parts.push(decoder.decode())
  return parts.join('')
}

export class TargetRequestError extends Error {
  /** `METHOD url`, credentials removed. */
  readonly endpoint: string
  /** The HTTP status, or null when no answer came. */
  readonly status: number | null
  /** The protocol error code, when the target sent one. */
  readonly code: string | null
  /** Seconds from `Retry-After`, when given. */
  readonly retryAfterSeconds: number | null
  /** The error body's message as the target wrote it (secrets masked), when it sent one. */
  readonly serverMessage: string | null

  constructor(
    endpoint: string,
    problem: string,
    init: { status?: number; code?: string; retryAfter?: number | null; serverMessage?: string } = {},
  ) {
    super(`${endpoint}: ${problem}`)
    this.name = 'TargetRequestError'
    this.endpoint = endpoint
    this.status = init.status ?? null
    this.code = init.code ?? null
    this.retryAfterSeconds = init.retryAfter ?? null
    this.serverMessage = init.serverMessage ?? null
  }
}

/** The base URL without user:password (a URL may be shown; credentials never are). */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url)
    u.username = ''
    u.password = ''
    return u.toString().replace(/\/$/, '')
  } catch {
    return '(invalid URL)'
  }
}

function describeNetworkFailure(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause
  if (cause?.code === 'UND_ERR_SOCKET' || cause?.code === 'ECONNRESET') return 'the connection was dropped before an answer came'
  if (cause?.code)
    return `no connection (${cause.message?.includes(cause.code) ? cause.message : `${cause.code}${cause.message ? `: ${cause.message}` : ''}`})`
  // undici hides the reason in `cause` ("fetch failed" alone says nothing); browsers give no reason at all.
  return `no connection (${cause?.message ?? (error as Error)?.message ?? String(error)})`
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return JSON.stringify(flat.length > 120 ? `${flat.slice(0, 120)}…` : flat)
}

function retryAfterOf(response: Response): number | null {
  const raw = response.headers.get('retry-after')
  if (raw === null) return null
  const seconds = Number(raw)
  if (Number.isFinite(seconds) && seconds >= 0) return seconds
  const date = Date.parse(raw)
  return Number.isNaN(date) ? null : Math.max(0, (date - Date.now()) / 1000)
}

export class ProtocolClient {
  readonly baseUrl: string
  private readonly shownBase: string
  private readonly token: string | undefined
  private readonly timeoutMs: number
  private readonly fetchImpl: typeof fetch
  private readonly maxResponseBytes: number
  /** The request headers, built once per client (fetch only reads them): without a body, and with a JSON one. */
  private readonly headers: Readonly<Record<string, string>>
  private readonly jsonHeaders: Readonly<Record<string, string>>

  constructor(baseUrl: string, options: ProtocolClientOptions = {}) {
    let parsed: URL
    try {
      parsed = new URL(baseUrl)
    } catch {
      throw new TargetRequestError(`target ${JSON.stringify(baseUrl)}`, 'not a valid URL')
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new TargetRequestError(`target ${redactUrl(baseUrl)}`, 'only http and https targets are supported')
    }
    this.baseUrl = baseUrl.replace(/\/+$/, '')
    this.shownBase = redactUrl(this.baseUrl)
    this.token = options.token
    this.timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES
    const auth: Record<string, string> = this.token === undefined ? {} : { Authorization: `Bearer ${this.token}` }
    this.headers = Object.freeze({ Accept: 'application/json', ...auth })
    this.jsonHeaders = Object.freeze({ Accept: 'application/json', 'Content-Type': 'application/json', ...auth })
  }

  /** A target that echoes our token (in an error, an observation) must not get it into a message or a result. */
  get masksSecrets(): boolean {
    return this.token !== undefined && this.token.length >= 4
  }

  mask(text: string): string {
    return this.masksSecrets ? text.split(this.token!).join('[redacted]') : text
  }

  endpoint(method: string, path: string): string {
    return `${method} ${this.shownBase}${path}`
  }

  /**
   * One request. With a schema, the 2xx answer must be JSON that matches it;
   * without one, the body is ignored (204 answers). `signal` cancels.
   */
  async call<S extends z.ZodType>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body: unknown,
    schema: S,
    signal?: AbortSignal,
  ): Promise<z.infer<S>>
  async call(method: 'GET' | 'POST' | 'DELETE', path: string, body: unknown, schema: null, signal?: AbortSignal): Promise<void>
  async call(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body: unknown,
    schema: z.ZodType | null,
    signal?: AbortSignal,
  ): Promise<unknown> {
    // One controller per request, aborted by the timeout or by the caller's signal: a plain timer
    // and a shared listener, cheaper per step than AbortSignal.timeout joined by AbortSignal.any.
    const controller = new AbortController()
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      controller.abort(new DOMException('per-request timeout', 'TimeoutError'))
    }, this.timeoutMs)
    const stopFollowing = signal ? whenAborted(signal, (reason) => controller.abort(reason)) : null
    let response: Response
    let text: string
    try {
      response = await this.fetchImpl(`${this.baseUrl}${path}`, {
        method,
        headers: body === undefined ? this.headers : this.jsonHeaders,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: controller.signal,
        // A redirect could carry the token elsewhere: a target answers in place or fails.
        redirect: 'error',
      })
      text = await readCapped(response, this.maxResponseBytes)
    } catch (e) {
      const endpoint = this.endpoint(method, path)
      if (e instanceof TooLargeError) {
        throw new TargetRequestError(endpoint, `answered with ${e.message}`)
      }
      if (signal?.aborted) throw signal.reason
      if (timedOut) throw new TargetRequestError(endpoint, `no answer within ${this.timeoutMs / 1000} s (per-request timeout)`)
      throw new TargetRequestError(endpoint, describeNetworkFailure(e))
    } finally {
      clearTimeout(timer)
      stopFollowing?.()
    }
    if (!response.ok) throw this.statusError(this.endpoint(method, path), response, text)
    if (schema === null) return undefined
    // A value nested deeper than the limit takes an opening and a closing bracket per level: a shorter
    // answer (every step's) cannot parse into one, and is not scanned.
    if (text.length >= 2 * (MAX_JSON_DEPTH + 1) && jsonDeeperThan(text, MAX_JSON_DEPTH)) {
      throw new TargetRequestError(
        this.endpoint(method, path),
        `answered ${response.status} with JSON nested deeper than ${MAX_JSON_DEPTH.toLocaleString('en-US')} levels (refused unparsed)`,
        { status: response.status },
      )
    }
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      throw new TargetRequestError(
        this.endpoint(method, path),
        `answered ${response.status} with a body that is not JSON: ${preview(this.mask(text))}`,
        { status: response.status },
      )
    }
    const parsed = parseWire(schema, json)
    if (!parsed.success) {
      const detail = parsed.error.issues
        .slice(0, 3)
        .map((i) => `${formatPath(i.path)}: ${i.message}`)
        .join('; ')
      throw new TargetRequestError(
        this.endpoint(method, path),
        `answered ${response.status} with a body that breaks the protocol: ${detail}`,
        { status: response.status },
      )
    }
    return parsed.data
  }

  private statusError(endpoint: string, response: Response, text: string): TargetRequestError {
    const retryAfter = retryAfterOf(response)
    let json: unknown = null
    try {
      json = JSON.parse(text)
    } catch {
      // Not a protocol error body: shown as text below.
    }
    const parsed = ErrorBodySchema.safeParse(json)
    if (parsed.success) {
      const { code, message } = parsed.data.error
      return new TargetRequestError(endpoint, `answered ${response.status} ${code}${message ? `: ${this.mask(message)}` : ''}`, {
        status: response.status,
        code,
        retryAfter,
        serverMessage: this.mask(message),
      })
    }
    return new TargetRequestError(endpoint, `answered ${response.status} ${preview(this.mask(text))}`, {
      status: response.status,
      retryAfter,
    })
  }
}
