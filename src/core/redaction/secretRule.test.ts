import { compileRules, redactText } from './redact'
import { base64Cores, secretRule } from './secretRule'

const SECRET = 'AZURE-FALCON-7391'

function mask(text: string, value = SECRET): string {
  const rule = secretRule('secret-1', value, 'Secret value 1')
  if ('error' in rule) throw new Error(rule.error)
  return redactText(text, compileRules([rule])).text
}

describe('a rule from a secret value catches its common encodings', () => {
  it('the value as it is, in any case', () => {
    expect(mask(`The passphrase is ${SECRET}.`)).toBe('The passphrase is [redacted:secret-1].')
    expect(mask('lower: azure-falcon-7391')).toBe('lower: [redacted:secret-1]')
  })

  it('spelled out with spaces or dashes, and reversed', () => {
    expect(mask('A Z U R E - F A L C O N - 7 3 9 1')).toBe('[redacted:secret-1]')
    expect(mask('A-Z-U-R-E---F-A-L-C-O-N---7-3-9-1')).toBe('[redacted:secret-1]')
    const reversed = [...SECRET].reverse().join('')
    expect(mask(`backwards: ${reversed}`)).toBe('backwards: [redacted:secret-1]')
    expect(mask(`spelled backwards: ${[...reversed].join(' ')}`)).toBe('spelled backwards: [redacted:secret-1]')
  })

  it('base64, alone or inside a longer encoded text at any alignment', () => {
    expect(mask(`base64: ${btoa(SECRET)}`)).not.toContain(btoa(SECRET).slice(0, 12))
    for (const prefix of ['', 'x', 'xy', 'the passphrase is ']) {
      const encoded = btoa(`${prefix}${SECRET} and more`)
      const out = mask(encoded)
      expect(out, prefix).toContain('[redacted:secret-1]')
      // What is left cannot be decoded back to the secret.
      expect(out.replace(/\[redacted:secret-1\]/g, '')).not.toContain(btoa(SECRET).slice(4, 16))
    }
    expect(base64Cores(SECRET)).toHaveLength(3)
  })

  it('hex, with or without separators', () => {
    const hex = [...new TextEncoder().encode(SECRET)].map((b) => b.toString(16).padStart(2, '0'))
    expect(mask(`hex ${hex.join('')}`)).toBe('hex [redacted:secret-1]')
    expect(mask(`HEX ${hex.join(' ').toUpperCase()}`)).toBe('HEX [redacted:secret-1]')
    expect(mask(hex.join(':'))).toBe('[redacted:secret-1]')
  })

  it('leaves other text alone, refuses a value too short to be a secret, and never names the value in its label', () => {
    expect(mask('The weather is fine, AZURE sky.')).toBe('The weather is fine, AZURE sky.')
    expect(secretRule('s', 'ab', 'x')).toEqual({ error: expect.stringContaining('at least 4 characters') })
    const rule = secretRule('secret-1', SECRET, 'Secret value 1')
    expect('label' in rule && rule.label).toBe('Secret value 1, also spaced, reversed, base64 and hex')
    expect(JSON.stringify('label' in rule ? rule.label : '')).not.toContain('AZURE')
  })

  it('a value with characters that mean something in a pattern is matched literally', () => {
    expect(mask('cost: $1.50 (a+b)*', '$1.50 (a+b)*')).toBe('cost: [redacted:secret-1]')
    expect(mask('cost: $1x50', '$1.50 (a+b)*')).toBe('cost: $1x50')
  })
})
