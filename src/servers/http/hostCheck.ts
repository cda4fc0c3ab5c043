/**
 * Host header check against DNS rebinding: a hostile page whose name
 * re-resolves to 127.0.0.1 becomes same-origin with a local target, so CORS
 * alone cannot stop it; the Host header it sends still carries its own name.
 */
import type { IncomingMessage } from 'node:http'

/** Extra hostnames (a leading dot allows subdomains, as in Vite), or true for any. */
export type HostPolicy = readonly string[] | true

/** The hostname of a Host header, without port, lowercased. */
export function hostnameOf(host: string): string {
  const h = host.trim().toLowerCase()
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1)
  return h.split(':')[0]
}

export function isLoopbackHostname(name: string): boolean {
  return name === 'localhost' || name.endsWith('.localhost') || name === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(name)
}

export function hostAllowed(req: IncomingMessage, policy: HostPolicy): boolean {
  if (policy === true) return true
  const header = req.headers.host
  if (header === undefined) return false
  const name = hostnameOf(header)
  if (isLoopbackHostname(name)) return true
  return policy.some((allowed) => {
    const a = allowed.toLowerCase()
    return a.startsWith('.') ? name === a.slice(1) || name.endsWith(a) : name === a
  })
}
