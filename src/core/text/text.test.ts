import { containsText, foldText, foldWithOrigin, SubstringIndex } from '.'

describe('foldText: what the echo check compares', () => {
  it('ignores case, whitespace and compatibility forms, not other punctuation', () => {
    expect(foldText('TIGER-42')).toBe('tiger-42')
    expect(foldText('  Tiger -\n\t42 ')).toBe('tiger-42')
    expect(foldText('ＴＩＧＥＲ－４２')).toBe('tiger-42')
    expect(foldText('TIGER\u00a042')).toBe('tiger42')
    expect(foldText('TIGER_42')).not.toBe(foldText('TIGER-42'))
    expect(foldText('ÉCOLE straße')).toBe('écolestraße')
    // Astral characters survive whole; a character NFKC lengthens is kept whole too.
    expect(foldText('a😀B')).toBe('a😀b')
    expect(foldText('\ufb01x')).toBe('fix')
  })

  it('maps every folded code unit back to its character in the original', () => {
    const f = foldWithOrigin('A b\ufb01')
    expect(f.text).toBe('abfi')
    expect([...f.origin]).toEqual([0, 2, 3, 3])
    expect(foldWithOrigin('x\ufdfay').text).toBe(foldText('x\ufdfay'))
  })

  it('folds ASCII alike on its fast path and on the general one, and as foldWithOrigin does', () => {
    let seed = 3
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n
    // Every ASCII code unit (controls and the six ASCII spaces included), plus a few that are not ASCII.
    const alphabet = [...Array.from({ length: 128 }, (_, c) => String.fromCharCode(c)), '\u00a0', 'É', '\ufb01', '\u3000']
    for (let i = 0; i < 2000; i++) {
      const ascii = Array.from({ length: rand(30) }, () => alphabet[rand(128)]).join('')
      // A trailing non-ASCII letter sends the same text down the general path.
      expect(foldText(ascii)).toBe(foldText(`${ascii}é`).slice(0, -1))
      expect(foldText(ascii)).toBe(foldWithOrigin(ascii).text)
      const mixed = Array.from({ length: rand(30) }, () => alphabet[rand(alphabet.length)]).join('')
      expect(foldText(mixed)).toBe(foldWithOrigin(mixed).text)
    }
  })
})

describe('containsText (KMP)', () => {
  it('finds a needle anywhere, including at the ends and after false starts', () => {
    expect(containsText('abcabd', 'abd')).toBe(true)
    expect(containsText('aaaaab', 'aab')).toBe(true)
    expect(containsText('abc', 'abcd')).toBe(false)
    expect(containsText('abababac', 'ababac')).toBe(true)
    expect(containsText('abababab', 'ababac')).toBe(false)
    expect(containsText('x', '')).toBe(true)
  })

  it('agrees with String.prototype.includes on random texts over a small alphabet', () => {
    let seed = 7
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n
    const word = (n: number) => Array.from({ length: n }, () => 'ab'[rand(2)]).join('')
    for (let i = 0; i < 2000; i++) {
      const hay = word(rand(20))
      const needle = word(1 + rand(5))
      expect(containsText(hay, needle)).toBe(hay.includes(needle))
    }
  })
})

describe('SubstringIndex (suffix automaton)', () => {
  const brute = (a: string, b: string) => {
    let best = 0
    for (let i = 0; i < b.length; i++) for (let j = i + 1; j <= b.length; j++) if (j - i > best && a.includes(b.slice(i, j))) best = j - i
    return best
  }

  it('gives the longest piece a text shares with the indexed one, and where it ends', () => {
    const index = new SubstringIndex('query last_reply did not match: "the vault code is 1234"')
    const hit = index.longestCommon('Reply: the vault code is 1234.')
    const text = 'Reply: the vault code is 1234.'
    expect(text.slice(hit.end - hit.length, hit.end)).toBe('the vault code is 1234')
    expect(new SubstringIndex('abc').longestCommon('xyz')).toEqual({ length: 0, end: 0 })
  })

  it('agrees with brute force on random texts', () => {
    let seed = 11
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n
    const word = (n: number) => Array.from({ length: n }, () => 'abc'[rand(3)]).join('')
    for (let i = 0; i < 500; i++) {
      const a = word(rand(25))
      const b = word(rand(25))
      expect(new SubstringIndex(a).longestCommon(b).length).toBe(brute(a, b))
    }
  })
})
