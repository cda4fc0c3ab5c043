/**
 * CORS for target servers. A page on another origin (the redscope app) calls
 * the target with fetch; the server must say which origins may do so. The
 * default allows loopback origins only: a page served from the Internet
 * cannot drive a target on the user's machine.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'

/** `http(s)://127.x.x.x`, `localhost` or `[::1]`, any port. */
export function isLoopbackOrigin(origin: string): boolean {
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false
  const host = url.hostname
  return host === 'localhost' || host === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(host)
}

/** Exact origins, '*' for any, or a predicate. */
export type OriginPolicy = readonly string[] | ((origin: string) => boolean)

export function originAllowed(policy: OriginPolicy, origin: string): boolean {
  if (typeof policy === 'function') return policy(origin)
  return policy.includes('*') || policy.includes(origin)
}

/**
 * May this request act? One without Origin is not a browser's cross-origin call; the page's own origin
 * (its authority is the Host it sent, which the Host check has already allowed) is same-origin. Anything
 * else must be allowed by the policy: a browser sends a cross-origin "simple" request (a POST with a
 * text/plain body) without asking first, so the answer's missing CORS headers alone would come too late.
 */
export function requestOriginAllowed(req: IncomingMessage, policy: OriginPolicy): boolean {
  const origin = req.headers.origin
  if (origin === undefined) return true
  if (originAllowed(policy, origin)) return true
  const host = req.headers.host
  return host !== undefined && (origin === `http://${host}` || origin === `https://${host}`)
}

// The browser asks before sending Authorization or a JSON content type.
const ALLOWED_HEADERS = 'authorization, content-type'
const ALLOWED_METHODS = 'GET, POST, DELETE, OPTIONS'

/**
 * Every answer depends on Origin, so caches must not share it across origins. The answer writers
 * (httpIo) put this header in the one writeHead of each answer: a header set before writeHead
 * sends node:http down its slower merging path, which was a visible share of a protocol step.
 */
export const VARY = 'Vary'
export const VARY_ORIGIN = 'Origin'

/** The request headers a preflight may allow: a fixed list, or chosen from those the browser asks for. */
export type HeaderPolicy = string | ((requested: readonly string[]) => readonly string[])

/**
 * Sets the CORS headers for an allowed origin (Vary: Origin comes with the answer, see VARY). Returns
 * true when the request was a preflight and has been answered.
 */
export function applyCors(
  req: IncomingMessage,
  res: ServerResponse,
  policy: OriginPolicy,
  headers: HeaderPolicy = ALLOWED_HEADERS,
): boolean {
  const origin = req.headers.origin
  // No Origin (every request but a browser's): nothing to allow, nothing to set.
  if (origin === undefined && req.method !== 'OPTIONS') return false
  const allowed = typeof origin === 'string' && originAllowed(policy, origin)
  if (allowed) {
    res.setHeader('Access-Control-Allow-Origin', origin)
    res.setHeader('Access-Control-Expose-Headers', 'Retry-After')
  }
  if (req.method !== 'OPTIONS') return false
  res.setHeader(VARY, VARY_ORIGIN)
  if (allowed) {
    res.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS)
    res.setHeader('Access-Control-Allow-Headers', allowedHeaders(req, headers))
    res.setHeader('Access-Control-Max-Age', '600')
  }
  // A refused origin gets no allow headers: the browser then blocks the call.
  res.statusCode = 204
  res.end()
  return true
}

function allowedHeaders(req: IncomingMessage, policy: HeaderPolicy): string {
  if (typeof policy === 'string') return policy
  const asked = req.headers['access-control-request-headers']
  const requested = (typeof asked === 'string' ? asked : '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== '')
  return policy(requested).join(', ')
}
