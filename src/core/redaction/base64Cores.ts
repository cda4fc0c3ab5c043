/**
 * The base64 forms of a secret, on their own: the mask every CLI process builds at start (heldSecrets.ts) needs
 * them, and must not load the redaction rules and their pattern checks to get them.
 */

/** Below this, a value would mask ordinary words. */
export const MIN_SECRET_CHARS = 4

export function bytesOf(s: string): Uint8Array {
  return new TextEncoder().encode(s)
}

function base64(bytes: Uint8Array): string {
  let bin = ''
  for (const b of bytes) bin += String.fromCharCode(b)
  return btoa(bin)
}

/**
 * The base64 text the secret's bytes always produce, whatever comes before or after them:
 * one string per alignment (0, 1 or 2 bytes before it in the encoded text).
 */
export function base64Cores(value: string): string[] {
  const bytes = bytesOf(value)
  const out: string[] = []
  for (let k = 0; k < 3; k++) {
    const padded = new Uint8Array(k + bytes.length)
    padded.set(bytes, k)
    const text = base64(padded)
    // Characters fully determined by the secret: after the ones the k unknown bytes touch, before the last partial group.
    const start = k === 0 ? 0 : k === 1 ? 2 : 3
    const end = Math.floor((k + bytes.length) / 3) * 4
    const core = text.slice(start, end)
    if (core.length >= 4) out.push(core)
  }
  return out
}
