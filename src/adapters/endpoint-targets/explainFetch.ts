/**
 * A fetch that says why a request failed. A browser reports every network
 * failure as the same bare `TypeError: Failed to fetch`, whether nothing
 * listens at the address, the server refused this page's origin (CORS), or
 * the connection dropped mid-run. This wrapper tells them apart as far as a
 * page can: an origin that already answered us and now fails has dropped the
 * connection; otherwise a `no-cors` probe that gets an (opaque) answer proves
 * the server is up, so the failure was CORS. The message names what to do.
 */

export class NetworkExplainedError extends TypeError {
  readonly kind: 'cors' | 'unreachable' | 'dropped' | 'mixed_content'
  constructor(kind: NetworkExplainedError['kind'], message: string) {
    super(message)
    this.name = 'NetworkExplainedError'
    this.kind = kind
  }
}

export interface ExplainOptions {
  /** The page's origin, for the advice (default: location.origin when there is one). */
  readonly pageOrigin?: string
  /** How long the no-cors probe may take (default 3 s). */
  readonly probeTimeoutMs?: number
}

function urlOf(input: RequestInfo | URL): URL | null {
  try {
    return new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url)
  } catch {
    return null
  }
}

export function corsAdvice(target: string, pageOrigin: string): string {
  return (
    `${target} is running but does not allow requests from this page (${pageOrigin}): the browser blocked the answer (CORS). ` +
    `To allow it: for a redscope target, start it with \`redscope serve-target NAME --allow-origin ${pageOrigin}\` ` +
    '(loopback pages are allowed by default); for any other server, answer OPTIONS preflights and send ' +
    `\`Access-Control-Allow-Origin: ${pageOrigin}\` with \`Access-Control-Allow-Headers: authorization, content-type\` ` +
    '(plus any header you configured). Or serve this app from an origin the server already allows.'
  )
}

export function explainingFetch(base: typeof fetch = (i, init) => globalThis.fetch(i, init), options: ExplainOptions = {}): typeof fetch {
  const answered = new Set<string>()
  const pageOrigin = options.pageOrigin ?? (typeof location === 'undefined' ? 'this page' : location.origin)
  return async (input, init) => {
    const url = urlOf(input)
    try {
      const response = await base(input, init)
      if (url) answered.add(url.origin)
      return response
    } catch (error) {
      if (!(error instanceof TypeError) || init?.signal?.aborted || url === null) throw error
      const origin = url.origin
      if (answered.has(origin)) {
        throw new NetworkExplainedError(
          'dropped',
          `the connection to ${origin} failed after earlier requests had worked: ` +
            'the server stopped, restarted or dropped the connection',
        )
      }
      if (pageOrigin.startsWith('https:') && url.protocol === 'http:' && url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') {
        throw new NetworkExplainedError(
          'mixed_content',
          `this page is served over https, so the browser refuses plain-http ${origin}: use an https address`,
        )
      }
      let up = false
      try {
        await base(url.href, { method: 'GET', mode: 'no-cors', signal: AbortSignal.timeout(options.probeTimeoutMs ?? 3000) })
        up = true
      } catch {
        up = false
      }
      if (up) throw new NetworkExplainedError('cors', corsAdvice(origin, pageOrigin))
      throw new NetworkExplainedError(
        'unreachable',
        `nothing answered at ${origin}: is the server running and is the address right? ` +
          `(A server that refuses this page's origin (CORS) can look the same: it must allow ${pageOrigin}.)`,
      )
    }
  }
}
