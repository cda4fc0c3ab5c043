/**
 * Files are bytes; a reader that decodes them leniently turns a byte that is not UTF-8 into U+FFFD and
 * goes on, so a damaged or mis-encoded file reads as a slightly different one. Readers of files people
 * hand over (FOREST.json, a results tree being merged) decode strictly and say where the first bad byte is.
 */
export class InvalidUtf8Error extends Error {
  /** Offset of the first byte of the first invalid sequence. */
  readonly offset: number
  readonly byte: number
  constructor(offset: number, byte: number) {
    super(
      `not UTF-8 text: the byte 0x${byte.toString(16).padStart(2, '0')} at offset ${offset.toLocaleString('en-US')} begins no valid UTF-8 character`,
    )
    this.name = 'InvalidUtf8Error'
    this.offset = offset
    this.byte = byte
  }
}

const strict = new TextDecoder('utf-8', { fatal: true })

/** The text of UTF-8 bytes (a leading byte order mark dropped), or an InvalidUtf8Error naming the first bad byte. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return strict.decode(bytes)
  } catch {
    const at = firstInvalidUtf8(bytes)
    throw new InvalidUtf8Error(at, bytes[at] ?? 0)
  }
}

/** Where the first sequence that is not UTF-8 starts (RFC 3629: no overlongs, no surrogates, nothing past U+10FFFF); -1 if none. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0
  while (i < bytes.length) {
    const b = bytes[i]
    if (b < 0x80) {
      i++
      continue
    }
    // The sequence's length, and the range its second byte must fall in.
    let n: number
    let lo = 0x80
    let hi = 0xbf
    if (b >= 0xc2 && b <= 0xdf) n = 2
    else if (b >= 0xe0 && b <= 0xef) {
      n = 3
      if (b === 0xe0) lo = 0xa0
      if (b === 0xed) hi = 0x9f
    } else if (b >= 0xf0 && b <= 0xf4) {
      n = 4
      if (b === 0xf0) lo = 0x90
      if (b === 0xf4) hi = 0x8f
    } else return i
    if (i + n > bytes.length || bytes[i + 1] < lo || bytes[i + 1] > hi) return i
    for (let k = 2; k < n; k++) if (bytes[i + k] < 0x80 || bytes[i + k] > 0xbf) return i
    i += n
  }
  return -1
}
