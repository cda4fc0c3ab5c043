import { decodeUtf8, firstInvalidUtf8, InvalidUtf8Error } from '.'

const bytes = (...b: number[]) => new Uint8Array(b)
const utf8 = (s: string) => new TextEncoder().encode(s)

describe('strict UTF-8', () => {
  it('decodes UTF-8 as it is, a leading byte order mark dropped', () => {
    expect(decodeUtf8(utf8('{"tags": ["é", "😀", "中"]}'))).toBe('{"tags": ["é", "😀", "中"]}')
    expect(decodeUtf8(bytes(0xef, 0xbb, 0xbf, 0x7b, 0x7d))).toBe('{}')
  })

  it('names the offset and the byte of the first invalid sequence, where a lenient reader writes U+FFFD', () => {
    const text = utf8('{"tags": [{"name": "caf')
    const bad = new Uint8Array([...text, 0xe9, ...utf8('"}]}')])
    expect(new TextDecoder().decode(bad)).toContain('\uFFFD')
    expect(() => decodeUtf8(bad)).toThrow(InvalidUtf8Error)
    expect(() => decodeUtf8(bad)).toThrow(`not UTF-8 text: the byte 0xe9 at offset ${text.length} begins no valid UTF-8 character`)
  })

  it('finds what RFC 3629 refuses: stray continuations, overlongs, surrogates, past U+10FFFF, cut sequences', () => {
    expect(firstInvalidUtf8(utf8('plain é 😀'))).toBe(-1)
    expect(firstInvalidUtf8(bytes(0x61, 0x80))).toBe(1)
    expect(firstInvalidUtf8(bytes(0xc0, 0xaf))).toBe(0)
    expect(firstInvalidUtf8(bytes(0x61, 0xe0, 0x80, 0xaf))).toBe(1)
    expect(firstInvalidUtf8(bytes(0xed, 0xa0, 0x80))).toBe(0)
    expect(firstInvalidUtf8(bytes(0xf4, 0x90, 0x80, 0x80))).toBe(0)
    expect(firstInvalidUtf8(bytes(0x61, 0x62, 0xe2, 0x82))).toBe(2)
    expect(firstInvalidUtf8(bytes(0xff))).toBe(0)
  })
})
