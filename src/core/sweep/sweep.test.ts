import { describe, expect, it } from 'vitest'
import { buildDomain, CHATBOT_FOREST, distinctCombinations } from '../tags'
import { widerDidWorse, worstPerWider, type ModelOutcome } from './analysis'
import { countPick, expandPick, SweepPickError } from './select'

const m = (key: string, scope: string[], nSuccess: number, nCompleted: number, readOnly: string[] = []): ModelOutcome => ({
  key,
  scope,
  readOnly,
  nSuccess,
  nCompleted,
})

describe('sweep selection', () => {
  const domain = buildDomain(CHATBOT_FOREST)
  const reference = distinctCombinations(domain).map((s) => [...s].map((t) => t.name).sort())

  it('all: every distinct combination but the empty one, in the reference order', () => {
    const all = expandPick(domain, { kind: 'all' }, 1000)
    expect(countPick(domain, { kind: 'all' })).toBe(17n)
    expect(all).toHaveLength(17)
    expect(all.map((x) => [...x.scope].sort())).toEqual(reference.slice(1))
    expect(all.map((x) => x.index)).toEqual(Array.from({ length: 17 }, (_, i) => BigInt(i + 1)))
  })

  it('tag: all that grant the tag directly, with their reference indices; limit cuts the tail', () => {
    const withUser = expandPick(domain, { kind: 'tag', tag: 'user' }, 1000)
    expect(countPick(domain, { kind: 'tag', tag: 'user' })).toBe(9n)
    expect(withUser.every((x) => x.scope.includes('user'))).toBe(true)
    for (const x of withUser) expect([...x.scope].sort()).toEqual(reference[Number(x.index)])
    expect(expandPick(domain, { kind: 'tag', tag: 'user' }, 3)).toEqual(withUser.slice(0, 3))
    expect(() => expandPick(domain, { kind: 'tag', tag: 'nope' }, 10)).toThrow(SweepPickError)
  })

  it('indices: deduplicated, sorted, #0 dropped, out of range refused', () => {
    const picked = expandPick(domain, { kind: 'indices', indices: [5n, 0n, 2n, 5n] }, 10)
    expect(picked.map((x) => x.index)).toEqual([2n, 5n])
    expect(countPick(domain, { kind: 'indices', indices: [5n, 0n, 2n, 5n] })).toBe(2n)
    expect(() => expandPick(domain, { kind: 'indices', indices: [18n] }, 10)).toThrow(/#18 is not a threat model.*#0 to #17/)
  })
})

describe('wider did worse', () => {
  it('flags a wider scope with a lower rate than a narrower scope it contains, through subtrees and read_only', () => {
    const pairs = widerDidWorse(CHATBOT_FOREST, [
      m('user', ['user'], 1, 3),
      m('sp+user', ['system_prompt', 'user'], 0, 3),
      m('system+user', ['system', 'user'], 1, 3), // as good: no note
      m('system', ['system'], 0, 3),
      m('model', ['model'], 1, 3), // narrower than system, did better
      m('user ro', [], 1, 1, ['user']), // sees user but cannot write: contained in every model that writes user
    ])
    const keys = pairs.map((p) => `${p.wider} < ${p.narrower}`).sort()
    expect(keys).toEqual(['sp+user < user', 'sp+user < user ro', 'system < model', 'system+user < user ro', 'user < user ro'])
    const worst = worstPerWider(pairs)
    expect(worst.get('sp+user')).toEqual({ count: 2, pair: { wider: 'sp+user', narrower: 'user ro', widerRate: 0, narrowerRate: 1 } })
  })

  it('never compares models without completed tasks, equal coverage, or unrelated scopes', () => {
    expect(
      widerDidWorse(CHATBOT_FOREST, [
        m('a', ['user'], 1, 1),
        m('b', ['user', 'model'], 0, 0),
        m('c', ['system'], 0, 1),
        m('d', ['system_prompt', 'model', 'model_identity'], 1, 1), // same coverage? no: d lacks `system` itself
        m('e', ['model'], 1, 1),
        m('f', ['user'], 0, 1),
      ])
        .map((p) => `${p.wider}<${p.narrower}`)
        .sort(),
    ).toEqual(['c<d', 'c<e'])
  })
})
