import { attackerReading } from './attackerReading'
import { compareThreatModels } from './compare'
import fc from 'fast-check'
import { coverage, updatedCoverage } from './coverage'
import type { DesignTag, ScopePair } from './doc'
import { chatbotDoc, docOf, id } from './testDoc'

const tree = docOf([
  ['system', null],
  ['external', 'system'],
  ['user', 'external'],
  ['api', 'external'],
  ['other', null],
])
const eff = (scope: string[], ro: string[]) => {
  const c = coverage(tree.tags, { scope: scope.map(id), readOnly: ro.map(id) })
  return Object.fromEntries(
    tree.tags.map((t) => [t.name, `${c.get(t.id)!.effective}${c.get(t.id)!.via ? `:${c.get(t.id)!.via!.slice(3)}` : ''}`]),
  )
}

describe('coverage', () => {
  it('a granted tag covers its subtree', () => {
    expect(eff(['external'], [])).toEqual({
      system: 'none',
      external: 'write:external',
      user: 'write:external',
      api: 'write:external',
      other: 'none',
    })
  })

  it('read & write overrules read-only, both ways round', () => {
    expect(eff(['api'], ['system'])).toMatchObject({
      system: 'read:system',
      external: 'read:system',
      user: 'read:system',
      api: 'write:api',
    })
    expect(eff(['system'], ['user'])).toMatchObject({ user: 'write:system' })
  })
})

describe('updatedCoverage', () => {
  /** A random forest (each tag under an earlier one or a root, now and then a parent that is missing or a cycle) and a pair over it. */
  const forestAndPairs = fc.integer({ min: 1, max: 40 }).chain((n) =>
    fc.record({
      parents: fc.array(fc.integer({ min: -2, max: n - 1 }), { minLength: n, maxLength: n }),
      pairs: fc.array(
        fc.record({ scope: fc.uniqueArray(fc.nat(n - 1), { maxLength: 5 }), readOnly: fc.uniqueArray(fc.nat(n - 1), { maxLength: 5 }) }),
        { minLength: 2, maxLength: 6 },
      ),
    }),
  )
  const tagsOf = (parents: number[]): DesignTag[] =>
    parents.map((p, i) => ({
      id: id(`t${i}`),
      name: `t${i}`,
      description: '',
      // -1: a root; -2: a parent that does not exist; otherwise any tag, earlier (a tree) or not (possibly a cycle).
      parent: p === -1 ? null : p === -2 ? id('gone') : id(`t${p}`),
    }))
  const pairOf = (p: { scope: number[]; readOnly: number[] }): ScopePair => ({
    scope: p.scope.map((i) => id(`t${i}`)),
    readOnly: p.readOnly.map((i) => id(`t${i}`)),
  })

  it('equals the full pass after any sequence of grant changes, cycles and missing parents included', () => {
    fc.assert(
      fc.property(forestAndPairs, ({ parents, pairs }) => {
        const tags = tagsOf(parents)
        let before = { pair: pairOf(pairs[0]), coverage: coverage(tags, pairOf(pairs[0])) }
        for (const p of pairs.slice(1)) {
          const pair = pairOf(p)
          const next = updatedCoverage(tags, before, pair)
          expect(next).toEqual(coverage(tags, pair))
          before = { pair, coverage: next }
        }
      }),
      { numRuns: 300 },
    )
  })

  it('walks only the changed subtree: other tags keep their coverage objects', () => {
    const pair = { scope: [id('api')], readOnly: [] }
    const before = { pair, coverage: coverage(tree.tags, pair) }
    const next = updatedCoverage(tree.tags, before, { scope: [id('api')], readOnly: [id('other')] })
    expect(next.get(id('other'))!.effective).toBe('read')
    for (const name of ['system', 'external', 'user', 'api']) expect(next.get(id(name))).toBe(before.coverage.get(id(name)))
  })
})

describe('attackerReading', () => {
  it('reads scope={user} over the chatbot forest as the guide does', () => {
    const doc = chatbotDoc()
    const user = doc.tags.find((t) => t.name === 'user')!.id
    const r = attackerReading(doc.tags, { scope: [user], readOnly: [] })
    expect(r.summary).toBe('Can: send the user message and see the reply. Blind to system.')
  })

  it('lists read-only surfaces and several writes', () => {
    const doc = chatbotDoc()
    const by = (n: string) => doc.tags.find((t) => t.name === n)!.id
    const r = attackerReading(doc.tags, { scope: [by('user'), by('model')], readOnly: [by('system_prompt')] })
    expect(r.summary).toBe(
      "Can: rewrite the model's responses; and send the user message and see the reply. Sees, without being able to change: system_prompt. Blind to model_identity.",
    )
  })

  it('counts the tags under each grant and blind subtree, a 10,000-deep chain included', () => {
    const r = attackerReading(tree.tags, { scope: [id('external')], readOnly: [] })
    expect(r.writes.map((w) => [w.name, w.covers])).toEqual([['external', 2]])
    expect(r.blind.map((b) => [b.name, b.covers])).toEqual([['other', 0]])
    const chain = docOf(Array.from({ length: 10_000 }, (_, i): [string, string | null] => [`c${i}`, i === 0 ? null : `c${i - 1}`]))
    const deep = attackerReading(chain.tags, { scope: [], readOnly: [id('c1')] })
    expect(deep.reads.map((w) => [w.name, w.covers])).toEqual([['c1', 9_998]])
    expect(deep.blind).toEqual([])
  })

  it('says when nothing is granted', () => {
    expect(attackerReading(tree.tags, { scope: [], readOnly: [] }).summary).toMatch(/^No attacker yet/)
  })
})

describe('compareThreatModels', () => {
  it('lists differing grants and what they change', () => {
    const d = compareThreatModels(tree.tags, { scope: [id('user')], readOnly: [] }, { scope: [id('user')], readOnly: [id('system')] })
    expect(d.grants).toEqual([{ id: id('system'), name: 'system', a: 'none', b: 'read_only' }])
    expect(d.effects.map((e) => `${e.name}:${e.a}->${e.b}`)).toEqual(['system:none->read', 'external:none->read', 'api:none->read'])
  })
})
