/**
 * What a failed chat call says, shared by both openai-SDK backends (Node and
 * the page's explaining fetch): the endpoint first (credentials removed), the
 * reason in words (a timeout, a 429 after the SDK's retries, no connection),
 * and never the key, even when the endpoint echoes it in its error body.
 */
import OpenAI from 'openai'

/** A failed LLM call, its message starting with the endpoint. */
export class LlmRequestError extends Error {
  readonly endpoint: string
  readonly status: number | null
  constructor(endpoint: string, problem: string, status: number | null) {
    super(`${endpoint}: ${problem}`)
    this.name = 'LlmRequestError'
    this.endpoint = endpoint
    this.status = status
  }
}

/** `POST <base>/chat/completions`, without user:password or a query string. */
export function chatEndpoint(baseURL: string): string {
  try {
    const u = new URL(baseURL)
    u.username = ''
    u.password = ''
    u.search = ''
    return `POST ${u.toString().replace(/\/+$/, '')}/chat/completions`
  } catch {
    return 'POST (invalid base URL)/chat/completions'
  }
}

/** The key cut out of a text (any text an endpoint sent back). */
export function maskKey(text: string, apiKey: string | null | undefined): string {
  return apiKey && apiKey.length >= 4 ? text.split(apiKey).join('[redacted]') : text
}

export interface CallContext {
  readonly endpoint: string
  readonly apiKey: string | null | undefined
  readonly timeoutMs: number
  readonly maxRetries: number
}

/** A failure the page's explaining fetch already put in words (see endpoint-targets/explainFetch.ts). */
function isExplained(cause: unknown): cause is Error {
  return cause instanceof Error && cause.name === 'NetworkExplainedError'
}

/** The SDK's error as an LlmRequestError; a cancellation and anything that is not an API error pass through. */
export function explainLlmError(e: unknown, call: CallContext): unknown {
  if (e instanceof OpenAI.APIUserAbortError || !(e instanceof OpenAI.APIError)) return e
  const mask = (text: string) => maskKey(text, call.apiKey)
  const tries = call.maxRetries > 0 ? ` (after ${call.maxRetries + 1} attempts)` : ''
  let problem: string
  if (e instanceof OpenAI.APIConnectionTimeoutError) problem = `no answer within ${call.timeoutMs / 1000} s${tries}`
  else if (e instanceof OpenAI.APIConnectionError && isExplained(e.cause)) {
    // The page's explaining fetch found the cause (the origin refused by CORS, nothing listening...): it goes first,
    // whole, and the retries after it, since "no connection" alone hid it behind a cut-off line.
    problem = `${mask(e.cause.message)}${call.maxRetries > 0 ? ` (tried ${call.maxRetries + 1} times)` : ''}`
  } else if (e instanceof OpenAI.APIConnectionError)
    problem = `no connection${tries} (${mask(String((e.cause as Error | undefined)?.message ?? e.message))})`
  else if (e.status === 429) problem = `answered 429: rate limited${tries}: ${mask(e.message)}`
  else problem = `answered ${mask(e.message)}`
  // No `cause`: the SDK's own error may quote the key, and causes are printed into results.
  return new LlmRequestError(call.endpoint, problem, e.status ?? null)
}
