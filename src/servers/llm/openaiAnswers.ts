/**
 * The server's answers in OpenAI's shapes: completions, stream chunks (SSE)
 * and errors, `{"error": {"message", "type", "param", "code"}}`, which the
 * openai SDKs and litellm read and turn into their own exceptions.
 */
import type { ServerResponse } from 'node:http'
import { VARY, VARY_ORIGIN } from '../http/cors'
import type { Generation } from './chatEngine'

export class OpenAiHttpError extends Error {
  readonly status: number
  readonly type: string
  readonly code: string | null
  readonly param: string | null
  readonly headers: Readonly<Record<string, string>>

  constructor(
    status: number,
    type: string,
    code: string | null,
    message: string,
    options: { param?: string | null; headers?: Record<string, string> } = {},
  ) {
    super(message)
    this.name = 'OpenAiHttpError'
    this.status = status
    this.type = type
    this.code = code
    this.param = options.param ?? null
    this.headers = options.headers ?? {}
  }

  get body() {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.code } }
  }
}

export const invalidRequest = (message: string, param: string | null = null, code: string | null = null) =>
  new OpenAiHttpError(400, 'invalid_request_error', code, message, { param })

export function sendOpenAiJson(res: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    [VARY]: VARY_ORIGIN,
  })
  res.end(text)
}

export function sendOpenAiError(res: ServerResponse, error: OpenAiHttpError): void {
  sendOpenAiJson(res, error.status, error.body, error.headers)
}

export interface AnswerIdentity {
  readonly id: string
  readonly created: number
  readonly model: string
}

export function usageOf(g: Pick<Generation, 'promptTokens' | 'completionTokens'>) {
  return { prompt_tokens: g.promptTokens, completion_tokens: g.completionTokens, total_tokens: g.promptTokens + g.completionTokens }
}

export function completionBody(who: AnswerIdentity, g: Generation) {
  return {
    id: who.id,
    object: 'chat.completion',
    created: who.created,
    model: who.model,
    system_fingerprint: null,
    choices: [{ index: 0, message: { role: 'assistant', content: g.text, refusal: null }, logprobs: null, finish_reason: g.finishReason }],
    usage: usageOf(g),
  }
}

/** One `chat.completion.chunk`; with include_usage every chunk carries `usage: null` but the last. */
export function chunkBody(who: AnswerIdentity, delta: Record<string, string>, finishReason: string | null, withUsage: boolean) {
  return {
    id: who.id,
    object: 'chat.completion.chunk',
    created: who.created,
    model: who.model,
    system_fingerprint: null,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(withUsage ? { usage: null } : {}),
  }
}

export function usageChunkBody(who: AnswerIdentity, g: Generation) {
  return {
    id: who.id,
    object: 'chat.completion.chunk',
    created: who.created,
    model: who.model,
    system_fingerprint: null,
    choices: [],
    usage: usageOf(g),
  }
}

export const sseData = (payload: unknown) => `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`
