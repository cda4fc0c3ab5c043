/**
 * SHA-256 of a UTF-8 string, hex, synchronous: `crypto.subtle` is async and missing on pages served over plain http,
 * and the identity hash is needed synchronously (a Controller's label). @noble/hashes is pure JavaScript, audited,
 * and imports nothing from Node or the DOM, so the engine stays free of both.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'

export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)))
}
