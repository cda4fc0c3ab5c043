import { nounFor, plural } from './plural'

describe('plural', () => {
  it('says one in the singular and every other count in the plural, with thousands separated', () => {
    expect(plural(1, 'tag')).toBe('1 tag')
    expect(plural(0, 'tag')).toBe('0 tags')
    expect(plural(2, 'tag')).toBe('2 tags')
    expect(plural(1024, 'threat model')).toBe('1,024 threat models')
    expect(plural(1n, 'threat model')).toBe('1 threat model')
    expect(plural(351974n, 'threat model')).toBe('351,974 threat models')
    expect(plural(3, 'entry', 'entries')).toBe('3 entries')
    expect(nounFor(1, 'run')).toBe('run')
    expect(nounFor(5, 'run')).toBe('runs')
  })
})
