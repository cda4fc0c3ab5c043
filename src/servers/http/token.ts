/**
 * The servers' tokens, compared in constant time. A target server takes only
 * `Authorization: Bearer <token>`. The app server needs one beyond loopback,
 * where anyone who can reach the port could read the results folder. A browser presents it through HTTP Basic authentication (the
 * password; any user name): it asks once, keeps it for the origin, and the
 * token never appears in a URL, a link or the printed address. Scripts send
 * `Authorization: Bearer <token>`.
 */
import { timingSafeEqual } from 'node:crypto'

function same(presented: string, token: string): boolean {
  const a = Buffer.from(presented)
  const b = Buffer.from(token)
  // Constant-time compare, so the token cannot be guessed byte by byte from timings.
  return a.length === b.length && timingSafeEqual(a, b)
}

/** A target server's check: `Bearer <token>` and nothing else. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  return same(/^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '', token)
}

/** The app server's check: a Bearer token, or the password of HTTP Basic authentication. */
export function tokenPresented(header: string | undefined, token: string): boolean {
  if (header === undefined) return false
  const bearer = /^Bearer (.+)$/i.exec(header)
  if (bearer) return same(bearer[1], token)
  const basic = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header)
  if (!basic) return false
  const decoded = Buffer.from(basic[1], 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  return colon >= 0 && same(decoded.slice(colon + 1), token)
}

export const AUTH_CHALLENGE = 'Basic realm="redscope", charset="UTF-8"'
