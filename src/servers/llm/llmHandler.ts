/**
 * An OpenAI-compatible chat server over a ChatEngine, as a node:http handler:
 * `POST /v1/chat/completions` (JSON with usage, or SSE with `stream: true`),
 * `GET /v1/models`, `GET /health`. Hardened as redscope's other servers are
 * (src/servers/http): a Host check against DNS rebinding, CORS for loopback
 * origins (or those given), a bearer token when one is set (the API key of
 * OpenAI clients), bounded bodies and JSON depth, zod-parsed requests, and
 * errors in OpenAI's shape. Requests beyond the engine's slots wait in a
 * bounded FIFO queue (admission.ts); past it, 503 with Retry-After, which the
 * openai SDKs and litellm honour by retrying.
 */
import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { JsonTooDeepError, parseBoundedJson } from '../../core/json'
import { formatPath } from '../../core/tags'
import { applyCors, isLoopbackOrigin, originAllowed, type OriginPolicy } from '../http/cors'
import { hostAllowed, type HostPolicy } from '../http/hostCheck'
import { DEFAULT_MAX_BODY_BYTES, ProtocolHttpError, readBody } from '../http/jsonIo'
import { pathOf } from '../http/requestPath'
import { bearerMatches } from '../http/token'
import { Admission, AdmissionClosedError, QueueFullError } from './admission'
import { PromptTooLongError, ResponseFormatError, type ChatEngine, type Generation, type GenerateRequest } from './chatEngine'
import { ChatCompletionRequestSchema, engineMessages, jsonConstraint, stopStrings } from './openaiRequest'
import {
  chunkBody,
  completionBody,
  invalidRequest,
  OpenAiHttpError,
  sendOpenAiError,
  sendOpenAiJson,
  sseData,
  usageChunkBody,
  type AnswerIdentity,
} from './openaiAnswers'
import { requestSeed } from './requestSeed'

export interface LlmServerOptions {
  readonly engine: ChatEngine
  /** Requests waiting for a free slot; any more get 503 with Retry-After. Default 32. */
  readonly maxQueue?: number
  /** When set, every request but a preflight must carry `Authorization: Bearer <token>` (an OpenAI client's API key). */
  readonly token?: string
  /** Default: loopback origins only (the app served by `npm start`, `npm run dev` or `redscope view`). */
  readonly allowedOrigins?: OriginPolicy
  /** Host header names accepted besides loopback ones, or true for any. Default: loopback only. */
  readonly allowedHosts?: HostPolicy
  readonly maxBodyBytes?: number
  /** A reproducible run: requests without their own seed get one derived from this and the request (requestSeed.ts). */
  readonly seed?: number
  /**
   * The most tokens any one answer gets, whatever the request asks (finish_reason `length` when it cuts): bounds
   * the time a client that asks for long answers (the LLM attacker asks for 600) takes from a slow CPU model.
   */
  readonly maxTokens?: number
  /** The temperature of requests that give none. Default 1, as OpenAI's API. */
  readonly defaultTemperature?: number
  /** One line per request (method, path, status, token counts, seed, times): never headers or message text. */
  readonly log?: (line: string) => void
}

export type ConnectHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void

export interface LlmHandler extends ConnectHandler {
  /** Refuses queued requests, ends running generations early, and resolves once they have answered. */
  close(): Promise<void>
  readonly running: number
  readonly waiting: number
}

/** Chat requests nest a few levels (messages, content parts); anything much deeper is not a chat request. */
const MAX_REQUEST_DEPTH = 32
export const SEED_HEADER = 'x-redscope-seed'

/**
 * The request headers a browser's openai SDK sends (its `x-stainless-*` telemetry, OpenAI's organization and
 * project) besides the key and the JSON type: allowed by family, so that a newer SDK's new header still passes.
 */
export function llmRequestHeaderAllowed(name: string): boolean {
  return (
    name === 'authorization' ||
    name === 'content-type' ||
    name === 'accept' ||
    /^x-stainless-[a-z0-9-]+$/.test(name) ||
    /^openai-[a-z0-9-]+$/.test(name)
  )
}

const notFound = (method: string, path: string) =>
  new OpenAiHttpError(
    404,
    'invalid_request_error',
    'unknown_url',
    `no endpoint ${method} ${path} here (this server answers POST /v1/chat/completions, GET /v1/models and GET /health)`,
  )

function capped(asked: number | null | undefined, cap: number | undefined): number | undefined {
  const n = asked ?? undefined
  if (cap === undefined) return n
  return n === undefined ? cap : Math.min(n, cap)
}

export function createLlmHandler(options: LlmServerOptions): LlmHandler {
  const { engine } = options
  const admission = new Admission(engine.slots, options.maxQueue ?? 32)
  const origins = options.allowedOrigins ?? isLoopbackOrigin
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const defaultTemperature = options.defaultTemperature ?? 1
  const inflight = new Map<AbortController, Promise<void>>()
  const created = Math.floor(Date.now() / 1000)
  // A running mean of how long an answer takes, for Retry-After (derived from what was served, never configured).
  let meanSeconds = 2

  const retryAfter = () => String(Math.min(60, Math.max(1, Math.ceil((meanSeconds * (admission.waiting + 1)) / admission.slots))))

  const modelObject = () => ({ id: engine.modelId, object: 'model', created, owned_by: 'redscope' })

  async function readRequest(req: IncomingMessage) {
    const type = req.headers['content-type'] ?? ''
    // A browser sends JSON across origins only after a preflight; a form post (text/plain) would skip it.
    if (!/^application\/json\b/i.test(type)) {
      throw new OpenAiHttpError(
        415,
        'invalid_request_error',
        'unsupported_media_type',
        `the body must be JSON with Content-Type: application/json (got ${JSON.stringify(type)})`,
      )
    }
    let text: string
    try {
      text = await readBody(req, maxBody)
    } catch (e) {
      if (e instanceof ProtocolHttpError) throw new OpenAiHttpError(e.status, 'invalid_request_error', e.code, e.message)
      throw e
    }
    let json: unknown
    try {
      json = parseBoundedJson(text, MAX_REQUEST_DEPTH)
    } catch (e) {
      if (e instanceof JsonTooDeepError) throw invalidRequest(`the body nests deeper than ${MAX_REQUEST_DEPTH} levels`)
      throw invalidRequest(`the body is not JSON: ${(e as Error).message}`)
    }
    const parsed = ChatCompletionRequestSchema.safeParse(json)
    if (!parsed.success) {
      const first = parsed.error.issues[0]
      const param = first.path.length > 0 ? formatPath(first.path) : null
      const all = parsed.error.issues
        .slice(0, 5)
        .map((i) => `${i.path.length > 0 ? formatPath(i.path) : 'body'}: ${i.message}`)
        .join('; ')
      throw invalidRequest(`malformed chat completion request: ${all}`, param)
    }
    return parsed.data
  }

  async function completions(req: IncomingMessage, res: ServerResponse, note: (s: string) => void): Promise<void> {
    const body = await readRequest(req)
    const messages = engineMessages(body)
    const inputs = {
      messages,
      temperature: body.temperature ?? defaultTemperature,
      topP: body.top_p,
      maxTokens: capped(body.max_completion_tokens ?? body.max_tokens, options.maxTokens),
      stop: stopStrings(body),
      frequencyPenalty: body.frequency_penalty,
      presencePenalty: body.presence_penalty,
      json: jsonConstraint(body),
    }
    const request: GenerateRequest = { ...inputs, seed: requestSeed(body.seed, options.seed, inputs) }
    const stream = body.stream === true
    const withUsage = stream && body.stream_options?.include_usage === true
    const who: AnswerIdentity = { id: `chatcmpl-${randomUUID()}`, created: Math.floor(Date.now() / 1000), model: engine.modelId }

    const abort = new AbortController()
    // The client went away (closed the connection, or a stream it stopped reading): stop working for it.
    const gone = () => {
      if (!res.writableFinished) abort.abort(new Error('the client closed the connection'))
    }
    res.on('close', gone)
    const queuedAt = performance.now()
    let slot: number
    try {
      slot = await admission.acquire(abort.signal)
    } catch (e) {
      res.off('close', gone)
      if (e instanceof QueueFullError)
        throw new OpenAiHttpError(503, 'server_error', 'queue_full', e.message, { headers: { 'Retry-After': retryAfter() } })
      if (e instanceof AdmissionClosedError) throw new OpenAiHttpError(503, 'server_error', 'shutting_down', e.message)
      note('client gone while queued')
      return
    }
    const startedAt = performance.now()
    let finish!: () => void
    inflight.set(abort, new Promise<void>((r) => (finish = r)))
    let g: Generation | undefined
    try {
      if (stream) {
        const write = (payload: unknown) => {
          if (!abort.signal.aborted) res.write(sseData(payload))
        }
        try {
          g = await engine.generate(slot, request, {
            signal: abort.signal,
            onStart: () => {
              res.writeHead(200, {
                'Content-Type': 'text/event-stream; charset=utf-8',
                'Cache-Control': 'no-cache',
                Connection: 'keep-alive',
                'X-Accel-Buffering': 'no',
                [SEED_HEADER]: String(request.seed),
                Vary: 'Origin',
              })
              write(chunkBody(who, { role: 'assistant', content: '' }, null, withUsage))
            },
            onText: (text) => {
              if (text !== '') write(chunkBody(who, { content: text }, null, withUsage))
            },
          })
        } catch (e) {
          if (!res.headersSent) throw e
          // Mid-stream, the status is gone: the error travels as an event, which the openai SDKs raise.
          write({ error: explain(e).body.error })
          res.end()
          return
        }
        if (!abort.signal.aborted) {
          write(chunkBody(who, {}, g.finishReason, withUsage))
          if (withUsage) write(usageChunkBody(who, g))
          write('[DONE]')
          res.end()
        }
      } else {
        g = await engine.generate(slot, request, { signal: abort.signal })
        if (!abort.signal.aborted) sendOpenAiJson(res, 200, completionBody(who, g), { [SEED_HEADER]: String(request.seed) })
      }
    } finally {
      admission.release(slot)
      inflight.delete(abort)
      finish()
      res.off('close', gone)
      const seconds = (performance.now() - startedAt) / 1000
      if (g !== undefined && !g.aborted) meanSeconds = 0.8 * meanSeconds + 0.2 * seconds
      if (g !== undefined) {
        note(
          `prompt=${g.promptTokens} completion=${g.completionTokens} finish=${g.aborted ? 'aborted' : g.finishReason} seed=${request.seed}${stream ? ' stream' : ''} ` +
            `${seconds.toFixed(2)} s (queued ${((startedAt - queuedAt) / 1000).toFixed(2)} s)`,
        )
      }
    }
  }

  function explain(e: unknown): OpenAiHttpError {
    if (e instanceof OpenAiHttpError) return e
    if (e instanceof PromptTooLongError) return invalidRequest(e.message, 'messages', 'context_length_exceeded')
    if (e instanceof ResponseFormatError) return invalidRequest(e.message, 'response_format')
    return new OpenAiHttpError(500, 'server_error', 'engine_error', `the model failed: ${(e as Error)?.message ?? String(e)}`)
  }

  async function serve(req: IncomingMessage, res: ServerResponse, method: string, path: string, note: (s: string) => void): Promise<void> {
    try {
      if (options.token !== undefined && !bearerMatches(req.headers.authorization, options.token)) {
        throw new OpenAiHttpError(
          401,
          'invalid_request_error',
          'invalid_api_key',
          "this server requires Authorization: Bearer <token> (an OpenAI client sends its API key so: give the server's token as the key)",
          { headers: { 'WWW-Authenticate': 'Bearer' } },
        )
      }
      const route = path.startsWith('/v1/') ? path.slice(3) : path
      if (route === '/chat/completions') {
        if (method !== 'POST')
          throw new OpenAiHttpError(
            405,
            'invalid_request_error',
            'method_not_allowed',
            `${method} is not allowed on ${path}: POST a chat completion request`,
          )
        return await completions(req, res, note)
      }
      if (method !== 'GET' && method !== 'HEAD') throw notFound(method, path)
      if (route === '/models') return sendOpenAiJson(res, 200, { object: 'list', data: [modelObject()] })
      if (route.startsWith('/models/')) {
        const id = decodeURIComponent(route.slice('/models/'.length))
        if (id === engine.modelId) return sendOpenAiJson(res, 200, modelObject())
        throw new OpenAiHttpError(
          404,
          'invalid_request_error',
          'model_not_found',
          `this server serves one model, '${engine.modelId}', not '${id}'`,
        )
      }
      if (route === '/health') {
        return sendOpenAiJson(res, 200, {
          status: 'ok',
          model: engine.modelId,
          slots: admission.slots,
          running: admission.running,
          waiting: admission.waiting,
          max_queue: admission.maxQueue,
        })
      }
      throw notFound(method, path)
    } catch (e) {
      const error =
        e instanceof URIError ? invalidRequest(`the path ${JSON.stringify(path.slice(0, 200))} has a malformed %-escape`) : explain(e)
      if (!res.headersSent) sendOpenAiError(res, error)
      else res.end()
    }
  }

  const handler = ((req, res) => {
    const method = req.method ?? 'GET'
    const path = pathOf(req.url ?? '/')
    // Refusals and preflights are logged too: an operator sees a browser's calls that never reached the model.
    const logNow = (detail = '') => options.log?.(`${method} ${path} ${res.statusCode}${detail ? ` ${detail}` : ''}`)
    if (!hostAllowed(req, options.allowedHosts ?? [])) {
      sendOpenAiError(
        res,
        new OpenAiHttpError(
          403,
          'permission_error',
          'forbidden_host',
          `host ${JSON.stringify(req.headers.host ?? '')} is not allowed here`,
        ),
      )
      logNow('forbidden host')
      return
    }
    const origin = req.headers.origin
    if (applyCors(req, res, origins, (asked) => asked.filter(llmRequestHeaderAllowed))) {
      logNow(typeof origin === 'string' && originAllowed(origins, origin) ? 'preflight' : 'preflight refused')
      return
    }
    if (typeof origin === 'string') {
      if (!originAllowed(origins, origin)) {
        // A page of another origin may not even start a generation (its answer would be hidden from it anyway).
        sendOpenAiError(
          res,
          new OpenAiHttpError(
            403,
            'permission_error',
            'forbidden_origin',
            `origin ${JSON.stringify(origin)} is not allowed here (serve-llm --allow-origin)`,
          ),
        )
        logNow('forbidden origin')
        return
      }
      res.setHeader('Access-Control-Expose-Headers', `Retry-After, ${SEED_HEADER}`)
    }
    let detail = ''
    const handled = serve(req, res, method, path, (s) => (detail = s))
    if (options.log) void handled.finally(() => logNow(detail))
  }) as LlmHandler

  Object.defineProperty(handler, 'running', { get: () => admission.running })
  Object.defineProperty(handler, 'waiting', { get: () => admission.waiting })
  handler.close = async () => {
    admission.close()
    for (const abort of inflight.keys()) abort.abort(new Error('the server is shutting down'))
    await Promise.all(inflight.values())
  }
  return handler
}
