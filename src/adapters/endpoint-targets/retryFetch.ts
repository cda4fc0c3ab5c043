/**
 * One HTTP request that waits out rate limits: on 429 (or 503 with a
 * Retry-After) it sleeps for Retry-After (seconds or an HTTP date, clamped to
 * `maxWaitS`; 1 s when absent) and tries again, up to `maxRetries` times. The
 * sleep ends at once when the signal aborts.
 */

export interface RetryOptions {
  readonly maxRetries: number
  /** A Retry-After beyond this is clamped, so one odd header cannot stall a task for hours. */
  readonly maxWaitS: number
  readonly signal?: AbortSignal
  readonly fetch?: typeof fetch
  /** Called before each wait (for diagnostics and tests). */
  readonly onRetry?: (attempt: number, waitS: number, status: number) => void
}

export function retryAfterSeconds(raw: string | null, now = Date.now()): number | null {
  if (raw === null || raw.trim() === '') return null
  const seconds = Number(raw)
  if (Number.isFinite(seconds) && seconds >= 0) return seconds
  const date = Date.parse(raw)
  return Number.isNaN(date) ? null : Math.max(0, (date - now) / 1000)
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

export class RateLimitedError extends Error {
  readonly status: number
  constructor(endpoint: string, status: number, attempts: number) {
    super(`${endpoint}: answered ${status} ${status === 429 ? '(too many requests)' : '(unavailable)'} ${attempts} times in a row; gave up`)
    this.name = 'RateLimitedError'
    this.status = status
  }
}

export async function fetchWithRetry(url: string, init: RequestInit, options: RetryOptions): Promise<Response> {
  const doFetch = options.fetch ?? ((i: RequestInfo | URL, r?: RequestInit) => globalThis.fetch(i, r))
  const endpoint = `${init.method ?? 'GET'} ${url}`
  for (let attempt = 0; ; attempt++) {
    const response = await doFetch(url, { ...init, signal: options.signal })
    const wait = retryAfterSeconds(response.headers.get('retry-after'))
    const limited = response.status === 429 || (response.status === 503 && wait !== null)
    if (!limited) return response
    // Free the connection before waiting.
    await response.body?.cancel().catch(() => {})
    if (attempt >= options.maxRetries) throw new RateLimitedError(endpoint, response.status, attempt + 1)
    const waitS = Math.min(wait ?? 1, options.maxWaitS)
    options.onRetry?.(attempt + 1, waitS, response.status)
    await sleep(waitS * 1000, options.signal)
  }
}
