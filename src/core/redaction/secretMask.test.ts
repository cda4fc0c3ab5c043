import { MemoryStorage, redactingReader, redactingStorage } from '../results'
import { secretMask, SECRET_MASK } from '.'

const KEY = 'sk-proj-Ab3/Zy9+qK7wX2'
const b64 = (s: string) => btoa(s)

describe('the mask of the secrets redscope holds', () => {
  const { mask } = secretMask([KEY, null, '', undefined])

  it('catches the forms the docs list: plain, JSON-escaped, percent-encoded, base64 and base64url at any alignment', () => {
    expect(mask(`key=${KEY}!`)).toBe(`key=${SECRET_MASK}!`)
    expect(mask(JSON.stringify({ rationale: `quoted "${KEY}"` }))).not.toContain('Ab3')
    expect(mask(`?k=${encodeURIComponent(KEY)}&x=1`)).toBe(`?k=${SECRET_MASK}&x=1`)
    for (const prefix of ['', 'a', 'ab', 'abc']) {
      const encoded = b64(`${prefix}${KEY}tail`)
      expect(mask(encoded), prefix).not.toBe(encoded)
      const url = encoded.replace(/\+/g, '-').replace(/\//g, '_')
      expect(mask(url), `url ${prefix}`).not.toBe(url)
    }
    const unicode = secretMask(['clé-secrète-ÿ'])
    expect(unicode.mask('{"v": "cl\\u00e9-secr\\u00e8te-\\u00ff"}')).toBe(`{"v": "${SECRET_MASK}"}`)
  })

  it('does not catch what the docs say it does not: a split secret, a part of one, a transformed one', () => {
    for (const text of [
      KEY.slice(0, 10),
      `${KEY.slice(0, 10)}" + "${KEY.slice(10)}`,
      [...KEY].reverse().join(''),
      KEY.toUpperCase(),
      [...KEY].join(' '),
    ]) {
      expect(mask(text)).toBe(text)
    }
  })

  it('leaves text and short values alone, and is inactive without secrets', () => {
    expect(secretMask(['abc']).active).toBe(false)
    expect(secretMask([]).mask('anything')).toBe('anything')
    expect(mask('no secret here')).toBe('no secret here')
    expect(secretMask([KEY]).key).toBe(secretMask([KEY, KEY]).key)
  })
})

describe('the storage boundary', () => {
  it('masks every write, whatever prints it; one wrapper per storage and secrets, none without secrets', async () => {
    const inner = new MemoryStorage()
    const masked = secretMask([KEY])
    const storage = redactingStorage(inner, masked)
    expect(redactingStorage(inner, secretMask([KEY]))).toBe(storage)
    expect(redactingStorage(inner, secretMask([]))).toBe(inner)
    await storage.writeTextAtomic('a/task.json', JSON.stringify({ error: `401: ${KEY}` }))
    expect(await inner.readText('a/task.json')).toBe(`{"error":"401: ${SECRET_MASK}"}`)
    await inner.writeTextAtomic('old.json', `written before: ${KEY}`)
    expect(await redactingReader(inner, masked).readText('old.json')).toBe(`written before: ${SECRET_MASK}`)
    await expect(redactingReader(inner, masked).writeTextAtomic('x', 'y')).rejects.toThrow(/never writes/)
  })
})
