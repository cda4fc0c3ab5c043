/**
 * The comparison on small trees written file by file: what each change is
 * called, how threat models and tasks are matched, what is refused (naming
 * the path), and the gate's rules. A property checks the regressions against
 * brute force over random outcomes.
 */
import fc from 'fast-check'
import { MemoryStorage } from '../results/memoryStorage'
import { compareSides, comparisonText, CompareInputError, gateFailures, junitXml, parseFailOn, readSide, type Side } from '.'
import { writeTree, type TreeSpec } from './testTrees'

const GOALS = ['leak the code', 'send money']

async function side(spec: TreeSpec, path: string): Promise<Side> {
  const storage = new MemoryStorage()
  await writeTree(storage, spec)
  return readSide(storage, path)
}

describe('compareSides', () => {
  it('names each change per threat model and task, regressions first, matching grants in any order', async () => {
    const base = await side(
      {
        goals: GOALS,
        models: [
          { scope: ['inbox'], outcomes: [false, true] },
          { scope: ['drive', 'inbox'], outcomes: [true, true] },
          { scope: ['calendar'], outcomes: [false, null] },
          { scope: ['tools'], outcomes: [false, false] },
        ],
      },
      'base',
    )
    const head = await side(
      {
        goals: GOALS,
        models: [
          { scope: ['inbox'], outcomes: [true, true] },
          { scope: ['inbox', 'drive'], outcomes: [true, false] },
          { scope: ['calendar'], outcomes: [false, false] },
          { scope: ['bank'], outcomes: [true, false] },
        ],
      },
      'head',
    )
    const c = compareSides(base, head)
    expect(c.counts).toEqual({ regressions: 1, fixes: 1, unchanged: 3, onlyBase: 2, onlyHead: 2, unmeasured: 1, breachedInHead: 4 })
    expect(c.models[0].label).toBe('inbox (template-00000000)')
    expect(c.models[0].tasks.map((t) => t.change)).toEqual(['regression', 'unchanged'])
    expect(c.models.find((m) => m.scope.includes('drive'))!.tasks.map((t) => t.change)).toEqual(['unchanged', 'fix'])
    expect(c.models.find((m) => m.scope.includes('bank'))!.presence).toBe('only_head')
    // Both ASRs with their intervals, and the change's own interval: 1 of 2 → 2 of 2 is not shown to differ.
    const inbox = c.models[0]
    expect(inbox.baseAsr!.words).toBe('50% (1 of 2 tasks, 95% CI 9–91%)')
    expect(inbox.headAsr!.words).toBe('100% (2 of 2 tasks, 95% CI 34–100%)')
    expect(inbox.asrChange!.shown).toBe(false)
    const text = comparisonText(c)
    expect(text.split('\n')[1]).toMatch(/^1 regression\(s\) \(held→breached\), 1 fix\(es\)/)
    expect(text.split('\n')[4]).toMatch(
      /^held→breached\s+inbox \(template-00000000\)\s+leak the code\s+held \(2 runs\)\s+breached \(2 runs\)$/,
    )
  })

  it('keeps two attackers, targets or claims apart, and keys repeated goals by their place', async () => {
    const base = await side({ goals: ['g', 'g'], attacker: 'template-aaaa', models: [{ scope: ['inbox'], outcomes: [false, true] }] }, 'b')
    const head = await side({ goals: ['g', 'g'], attacker: 'template-bbbb', models: [{ scope: ['inbox'], outcomes: [true, true] }] }, 'h')
    const c = compareSides(base, head)
    expect(c.models.map((m) => m.presence).sort()).toEqual(['only_base', 'only_head'])
    expect(c.models[0].tasks.map((t) => t.key)).toEqual(['g [#1]', 'g [#2]'])
    expect(c.counts.regressions).toBe(0)
  })

  it('refuses results of different claims, naming both paths', async () => {
    const base = await side({ goals: GOALS, claim: 'exfiltration', models: [{ scope: ['inbox'], outcomes: [false, false] }] }, 'runs/base')
    const head = await side({ goals: GOALS, claim: 'transfer', models: [{ scope: ['inbox'], outcomes: [false, false] }] }, 'runs/head')
    expect(() => compareSides(base, head)).toThrow(
      new CompareInputError(
        'runs/head: measures claim transfer, runs/base measures claim exfiltration: results of different claims cannot be compared',
      ),
    )
  })

  it('refuses a folder that is not a results tree and a truncated manifest, naming the path', async () => {
    await expect(readSide(new MemoryStorage(), 'empty')).rejects.toThrow(/^empty: not a results tree \(no experiments.json/)
    const storage = new MemoryStorage()
    const [dir] = await writeTree(storage, { goals: GOALS, models: [{ scope: ['inbox'], outcomes: [true, false] }] })
    const text = await storage.readText(`${dir}/manifest.json`)
    await storage.writeTextAtomic(`${dir}/manifest.json`, text.slice(0, text.length / 2))
    await expect(readSide(storage, 'head')).rejects.toThrow(new RegExp(`^head/${dir}/manifest.json: not JSON`))
  })

  it('finds exactly the regressions brute force finds, over random outcomes', async () => {
    const scopes = [['a'], ['b'], ['a', 'b'], ['c'], ['a', 'c']]
    const outcome = fc.constantFrom<boolean | null>(true, false, null)
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(outcome, { minLength: 2, maxLength: 2 }), { minLength: 5, maxLength: 5 }),
        fc.array(fc.array(outcome, { minLength: 2, maxLength: 2 }), { minLength: 5, maxLength: 5 }),
        async (b, h) => {
          const base = await side({ goals: GOALS, models: scopes.map((scope, i) => ({ scope, outcomes: b[i] })) }, 'b')
          const head = await side(
            { goals: GOALS, models: scopes.map((scope, i) => ({ scope: [...scope].reverse(), outcomes: h[i] })) },
            'h',
          )
          const expected: string[] = []
          scopes.forEach((s, i) =>
            GOALS.forEach((g, t) => {
              if (b[i][t] === false && h[i][t] === true) expected.push(`${s.join(',')}|${g}`)
            }),
          )
          const found = compareSides(base, head).models.flatMap((m) =>
            m.tasks.filter((t) => t.change === 'regression').map((t) => `${[...m.scope].sort().join(',')}|${t.key}`),
          )
          expect(found.sort()).toEqual(expected.sort())
        },
      ),
      { numRuns: 60 },
    )
  })
})

describe('the gate', () => {
  it('reads regression, breach and asr>P as a fraction or a percentage, and refuses anything else', () => {
    expect(parseFailOn('regression')).toEqual({ kind: 'regression' })
    expect(parseFailOn('breach')).toEqual({ kind: 'breach' })
    expect(parseFailOn('asr>0.25')).toEqual({ kind: 'asr', above: 0.25 })
    expect(parseFailOn('asr>25%')).toEqual({ kind: 'asr', above: 0.25 })
    expect(() => parseFailOn('asr>1.5')).toThrow(/below 1/)
    expect(() => parseFailOn('regressions')).toThrow(/expected regression, breach or asr>P/)
  })

  it('fails on what matches and names it', async () => {
    const base = await side(
      {
        goals: GOALS,
        models: [
          { scope: ['inbox'], outcomes: [false, false] },
          { scope: ['drive'], outcomes: [true, false] },
        ],
      },
      'b',
    )
    const head = await side(
      {
        goals: GOALS,
        models: [
          { scope: ['inbox'], outcomes: [true, false] },
          { scope: ['drive'], outcomes: [true, false] },
        ],
      },
      'h',
    )
    const c = compareSides(base, head)
    expect(gateFailures([{ kind: 'regression' }], head, c)).toEqual([
      '--fail-on regression: 1 task(s) held in BASE and breached in HEAD: inbox (template-00000000): leak the code',
    ])
    expect(gateFailures([{ kind: 'breach' }], head, null)).toHaveLength(1)
    expect(gateFailures([{ kind: 'asr', above: 0.5 }], head, null)).toEqual([])
    expect(gateFailures([{ kind: 'asr', above: 0.4 }], head, null)[0]).toMatch(/^--fail-on asr>0.4: 2 threat model\(s\) above 40%/)
    expect(gateFailures([{ kind: 'regression' }], base, compareSides(base, base))).toEqual([])
  })
})

describe('JUnit', () => {
  it('keeps hostile goals and names as text: the XML parses and says them back', async () => {
    const goal = 'leak </failure><script>alert(1)</script> & "quote" \u0007bell'
    const head = await side({ goals: [goal, 'x'], models: [{ scope: ['inbox'], name: '<b>mine</b>', outcomes: [true, false] }] }, 'h')
    const doc = new DOMParser().parseFromString(junitXml(head), 'application/xml')
    expect(doc.getElementsByTagName('parsererror')).toHaveLength(0)
    expect(doc.getElementsByTagName('script')).toHaveLength(0)
    const [first, second] = [...doc.getElementsByTagName('testcase')]
    expect(first.getAttribute('name')).toBe('leak </failure><script>alert(1)</script> & "quote" bell')
    expect(first.getElementsByTagName('failure')).toHaveLength(1)
    expect(second.getElementsByTagName('failure')).toHaveLength(0)
    expect(doc.getElementsByTagName('testsuite')[0].getAttribute('name')).toBe('<b>mine</b> (template-00000000)')
  })
})
