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

/**
 * Wrong tokens, counted per client address as a bucket: ten at once, then one a second. An address that
 * has spent them gets 429 (with Retry-After) without its token being looked at, so guessing runs at one try
 * a second whatever the client sends; a right token spends nothing. Only another program on a machine that
 * can reach the port can spend an address's tries (a page on another origin is refused before the token is
 * read); the cost of that is a client locked out for a few seconds.
 */
export class WrongTokenLimiter {
  private readonly buckets = new Map<string, { left: number; at: number }>()

  constructor(
    private readonly burst = 10,
    private readonly perSecond = 1,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whole seconds this address must wait before its next try, 0 when it may try now. */
  waitSeconds(address: string): number {
    const left = this.refilled(address)
    return left >= 1 ? 0 : Math.ceil((1 - left) / this.perSecond)
  }

  /** A wrong token from this address. */
  failed(address: string): void {
    const left = this.refilled(address)
    this.buckets.set(address, { left: left - 1, at: this.now() })
    // Addresses whose tries have all come back are forgotten, so the map stays as small as the guessers.
    if (this.buckets.size > 1024) for (const a of [...this.buckets.keys()]) if (this.refilled(a) >= this.burst) this.buckets.delete(a)
  }

  private refilled(address: string): number {
    const b = this.buckets.get(address)
    if (b === undefined) return this.burst
    return Math.min(this.burst, b.left + ((this.now() - b.at) / 1000) * this.perSecond)
  }
}
