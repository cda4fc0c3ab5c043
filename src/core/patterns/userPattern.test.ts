import { PatternError, trustedPattern, userPattern } from '.'

describe('user patterns run on a linear-time engine', () => {
  it("a catastrophic pattern on a long text answers (JavaScript's engine would backtrack for ages)", () => {
    // (a+)+$ against 50,000 a's and a final !: 2^50,000 paths for a backtracking engine.
    const text = `${'a'.repeat(50_000)}!`
    expect(userPattern('(a+)+$').test(text)).toBe(false)
    expect(userPattern('^(\\w+\\s?)*$').test(`${'word '.repeat(10_000)}!`)).toBe(false)
    expect([...userPattern('(x+x+)+y').matchAll('x'.repeat(20_000))]).toEqual([])
  })

  it('matches as JavaScript does for ordinary patterns: flags, named groups, offsets in UTF-16 units', () => {
    expect(userPattern('azure-falcon', 'i').test('the code is AZURE-FALCON-7391')).toBe(true)
    expect(userPattern('^b$', 'm').test('a\nb\nc')).toBe(true)
    expect(userPattern('a.b', 's').test('a\nb')).toBe(true)
    expect(userPattern('a.b').test('a\nb')).toBe(false)
    const text = '😀 token=abc123 and é token=zz9999'
    const found = [...userPattern('token=(?<secret>\\w+)', 'g').matchAll(text)]
    expect(found.map((m) => [m.index, m.text, m.groups.secret])).toEqual([
      [3, 'token=abc123', 'abc123'],
      [22, 'token=zz9999', 'zz9999'],
    ])
    expect(found.map((m) => text.slice(m.index, m.index + m.text.length))).toEqual(['token=abc123', 'token=zz9999'])
    expect(userPattern('\\u{1F600}', 'u').test(text)).toBe(true)
  })

  it('refuses what cannot run in linear time, or is not a pattern at all, naming pattern or flags', () => {
    const refusal = (source: string, flags = '') => {
      try {
        userPattern(source, flags)
      } catch (e) {
        expect(e).toBeInstanceOf(PatternError)
        return { field: (e as PatternError).field, message: (e as PatternError).message }
      }
      throw new Error(`accepted /${source}/${flags}`)
    }
    expect(refusal('secret(?=\\d)')).toMatchObject({
      field: 'pattern',
      message: expect.stringContaining('not supported by the linear-time engine (RE2)'),
    })
    expect(refusal('(a)\\1').message).toContain('backreferences cannot run in linear time')
    expect(refusal('(').message).toMatch(/^not a valid regular expression \(/)
    expect(refusal('a', 'y')).toMatchObject({ field: 'flags', message: expect.stringContaining('the flag y is not supported') })
    expect(refusal('a', 'ii')).toMatchObject({ field: 'flags', message: '"ii" repeats the flag i' })
    expect(refusal('a', 'x').field).toBe('flags')
  })

  it('one compiled pattern serves every user of the same source and flags, and none of other flags', () => {
    const plain = userPattern('secret-\\d+')
    const folded = userPattern('secret-\\d+', 'i')
    expect(folded.test('SECRET-42')).toBe(true)
    expect(plain.test('SECRET-42')).toBe(false)
    expect(userPattern('secret-\\d+').test('SECRET-42')).toBe(false)
    expect(userPattern('secret-\\d+', 'gi').test('SECRET-42')).toBe(true)
    // Walks over the same compiled pattern, interleaved, keep their own places.
    const first = userPattern('\\d+').matchAll('1 22 333')[Symbol.iterator]()
    const second = userPattern('\\d+').matchAll('4 55')[Symbol.iterator]()
    const steps = [first.next(), second.next(), first.next(), second.next(), first.next(), second.next()]
    expect(steps.map((s) => (s.done ? null : s.value.text))).toEqual(['1', '4', '22', '55', '333', null])
    // Past the patterns kept, the oldest is forgotten: its users match on, and asking again compiles it anew.
    for (let i = 0; i < 100; i++) userPattern(`filler-${i}`)
    expect(plain.test('secret-7')).toBe(true)
    expect(userPattern('secret-\\d+', 'i').test('SECRET-1')).toBe(true)
    expect(userPattern('secret-\\d+').test('SECRET-1')).toBe(false)
  })

  it("trusted patterns (redscope's own) match the same way, with JavaScript's engine", () => {
    const text = 'Bearer abcdefgh12 and bearer zzzzzzzz'
    const own = [...trustedPattern(/\bBearer\s+(?<secret>\w{8,})/gi).matchAll(text)].map((m) => [m.index, m.groups.secret])
    const user = [...userPattern('\\bBearer\\s+(?<secret>\\w{8,})', 'gi').matchAll(text)].map((m) => [m.index, m.groups.secret])
    expect(own).toEqual([
      [0, 'abcdefgh12'],
      [22, 'zzzzzzzz'],
    ])
    expect(user).toEqual(own)
  })
})
