import fc from 'fast-check'
import { BUILTIN_RULES, compileRule, compileRules, findMatches, previewRedaction, redactText, redactValue, stringsOf, userRule } from '.'

const builtins = compileRules(BUILTIN_RULES)

describe('built-in redaction rules', () => {
  it.each([
    ['an OpenAI key', 'key is sk-proj-abcdefghijklmnop1234 ok', 'key is [redacted:api-key] ok'],
    ['a plain sk- key', 'sk-ABCDEFGHIJKLMNOPQRSTUV', '[redacted:api-key]'],
    ['a bearer token, keeping the word Bearer', 'Authorization: Bearer abc.def-ghi_123', 'Authorization: Bearer [redacted:bearer]'],
    ['an e-mail address', 'write to alice.smith+x@mail.example.co.uk now', 'write to [redacted:email] now'],
    ['a JWT', 'eyJhbGciOi.eyJzdWIiOiIx.SflKxwRJSM', '[redacted:jwt]'],
    ['a GitHub token', 'ghp_0123456789abcdefghijABCD', '[redacted:vendor-token]'],
    ['an AWS key id', 'AKIAIOSFODNN7EXAMPLE', '[redacted:vendor-token]'],
    ['a password assignment', 'password=hunter22!', 'password=[redacted:assigned-secret]'],
  ])('masks %s', (_, input, expected) => {
    expect(redactText(input, builtins).text).toBe(expected)
  })
  it('leaves ordinary prose alone', () => {
    const text = 'The skeleton key (sk-short) was at example dot com; a token of thanks.'
    expect(redactText(text, builtins)).toEqual({ text, matches: [] })
  })
})

describe('user rules', () => {
  it('masks what a user regex matches', () => {
    const c = compileRules([userRule('u1', 'ACME-\\d{4}')])
    expect(redactText('ticket ACME-1234 and ACME-99', c).text).toBe('ticket [redacted:u1] and ACME-99')
  })
  it('refuses invalid, empty and empty-matching patterns with a reason', () => {
    expect(compileRule({ pattern: '(', flags: 'g' })).toMatchObject({ code: 'invalid' })
    expect(compileRule({ pattern: '  ', flags: 'g' })).toMatchObject({ code: 'empty' })
    expect(compileRule({ pattern: 'a*', flags: 'g' })).toMatchObject({ code: 'matches_empty' })
    const c = compileRules([userRule('bad', '('), userRule('ok', 'x+')])
    expect(c.problems.map((p) => p.rule.id)).toEqual(['bad'])
    expect(c.rules.map((r) => r.rule.id)).toEqual(['ok'])
  })
  it('a user rule runs on the linear-time engine: a catastrophic one cannot hang an export, lookaround is refused', () => {
    const c = compileRules([userRule('evil', '(a+)+$'), userRule('ok', 'tok_\\w+')])
    expect(redactText(`${'a'.repeat(50_000)}! tok_123`, c).matches.map((m) => m.ruleId)).toEqual(['ok'])
    expect(compileRule({ pattern: 'x(?=y)', flags: 'g' })).toMatchObject({
      code: 'invalid',
      message: expect.stringMatching(/^Not supported by the linear-time engine/),
    })
    // A stored rule that claims a built-in's id with another pattern runs as a user's rule.
    const forged = { ...BUILTIN_RULES[0], pattern: '(a+)+$' }
    expect(redactText(`${'a'.repeat(50_000)}!`, compileRules([forged])).matches).toEqual([])
  })
  it('merges overlapping matches into one mask', () => {
    const c = compileRules([userRule('a', 'abc'), userRule('b', 'bcd')])
    expect(redactText('xabcdx', c).text).toBe('x[redacted:a]x')
  })
})

describe('redactValue and preview', () => {
  const finding = { goal: 'mail bob@corp.example', steps: [{ content: { auth: 'Bearer tok_abcdefgh1' } }], n: 3 }
  it('redacts every string of a nested value and keeps the rest', () => {
    expect(redactValue(finding, builtins)).toEqual({
      goal: 'mail [redacted:email]',
      steps: [{ content: { auth: 'Bearer [redacted:bearer]' } }],
      n: 3,
    })
  })
  it('previews what will be masked, with where it is and context', () => {
    const p = previewRedaction(stringsOf(finding, 'finding'), builtins)
    expect(p.total).toBe(2)
    expect(p.countsByRule).toEqual({ email: 1, bearer: 1 })
    expect(p.entries[1]).toMatchObject({ where: 'finding.steps[0].content.auth', match: 'tok_abcdefgh1', before: 'Bearer ' })
  })
})

describe('the shipped rules skip what cannot match, and find exactly what they would find anyway', () => {
  // The same rules, run everywhere over every text: what the hints and runs (rules.ts) must never change.
  const everywhere = compileRules(BUILTIN_RULES.map(({ id, label, pattern, flags, builtin }) => ({ id, label, pattern, flags, builtin })))
  const pieces = [
    'a',
    'Z',
    '9',
    '.',
    '-',
    '_',
    '+',
    '%',
    '@',
    ' ',
    '\n',
    '=',
    ':',
    '"',
    'sk-',
    'Bearer ',
    'bearer\t',
    'eyJ',
    'ghp_',
    'AKIA',
    'AIza',
    'xoxb-',
    'token',
    'API_KEY',
    'Passwd',
    'secret',
    'é',
    'İ',
    '\u00a0',
    'abcdefghijklmnop',
    'example.com',
    '.org',
  ]

  it("on random text built from the rules' own pieces", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 60 }), (parts) => {
        const text = parts.join('')
        expect(findMatches(text, builtins)).toEqual(findMatches(text, everywhere))
      }),
      { numRuns: 3000 },
    )
  })

  it('an address right after another, and an uppercase hint', () => {
    for (const text of ['a@b.com.x@y.org', 'mail:x@y.io,z@w.io', 'BEARER abcdefgh1234', 'İ x@y.com', 'A@B.CO']) {
      expect(findMatches(text, builtins)).toEqual(findMatches(text, everywhere))
    }
    expect(redactText('a@b.com.x@y.org', builtins).text).toBe('[redacted:email][redacted:email]')
  })

  it('hints are only believed of the rules shipped as they are', () => {
    const claimed = compileRules([{ ...userRule('mine', 'code-\\d+'), hints: ['nothing-like-this'] }])
    expect(redactText('code-42', claimed).text).toBe('[redacted:mine]')
  })
})
