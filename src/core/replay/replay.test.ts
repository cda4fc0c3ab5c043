import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { CHATBOT_FOREST, type Forest } from '../tags'
import {
  alignWithAttackerFile,
  buildReplay,
  coverageFor,
  diffRuns,
  forestCoverage,
  namesOnlyCoverage,
  resolveDomains,
  textDelta,
  chartGeometry,
} from '.'
import { buildDomain } from '../tags'
import type { PersistedItemLike } from './items'
import { end, inj, noInj, obs, pre } from './testItems'

const FIXTURE = join(
  __dirname,
  '../../../e2e/fixtures/superred-results-example/scripted__stub-agent__leak__no-llm-44a31aa2/tasks/00001__leak_the_secret/trajectories/run_00001.json',
)
const fixtureItems = (): PersistedItemLike[] => JSON.parse(readFileSync(FIXTURE, 'utf8')).trajectory

/** The stub agent's forest as it must have been: system → system_prompt, model; user; inbox; web. */
const STUB_FOREST: Forest = {
  tags: [
    { name: 'system', parent: null, description: '' },
    { name: 'system_prompt', parent: 'system', description: '' },
    { name: 'model', parent: 'system', description: '' },
    { name: 'user', parent: null, description: '' },
    { name: 'inbox', parent: null, description: '' },
    { name: 'web', parent: null, description: '' },
  ],
}
const grant = { scope: ['user'], readOnly: ['system'] }

describe('resolveDomains', () => {
  it('gives a response the domain of the event it answers, even when calls interleave', () => {
    const items = [pre('a', 'user'), pre('b', 'inbox'), noInj('b', 'scope'), inj('a')]
    const { domains, eventOf } = resolveDomains(items)
    expect(domains).toEqual(['user', 'inbox', 'inbox', 'user'])
    expect([...eventOf]).toEqual([-1, -1, 1, 0])
  })
  it('leaves an orphan response without a domain', () => {
    expect(resolveDomains([inj('ghost')]).domains).toEqual([null])
  })
})

describe('coverage', () => {
  it('covers descendants through the forest and names the nearest granted ancestor', () => {
    const c = forestCoverage(buildDomain(STUB_FOREST), grant)
    expect(c.cover('system_prompt')).toMatchObject({ visibleBy: 'system', visibleVia: 'read_only', writeBy: null })
    expect(c.cover('user')).toMatchObject({ visibleBy: 'user', visibleVia: 'scope', writeBy: 'user' })
    expect(c.isVisible('inbox')).toBe(false)
    expect(c.cover('nope').unknownTag).toBe(true)
  })
  it('in names-only mode, covers a tag only when its own name is granted', () => {
    const c = namesOnlyCoverage(grant)
    expect(c.isVisible('system')).toBe(true)
    expect(c.isVisible('system_prompt')).toBe(false)
    expect(c.isWritable('user')).toBe(true)
  })
  it('scope wins over read_only for the same subtree (write drives injectability)', () => {
    const c = coverageFor(CHATBOT_FOREST, { scope: ['system_prompt'], readOnly: ['system'] })
    expect(c.isWritable('system_prompt')).toBe(true)
    expect(c.isWritable('model')).toBe(false)
    expect(c.isVisible('model')).toBe(true)
  })
})

describe('buildReplay on the real superred fixture', () => {
  it('with the forest: system_prompt and model are visible read-only, inbox and web are gaps', () => {
    const items = fixtureItems()
    const r = buildReplay(items, null, coverageFor(STUB_FOREST, grant))
    expect(r.viewSource).toBe('recomputed')
    expect(r.rows).toBe(items.length)
    const hidden = Array.from({ length: r.rows }, (_, i) => i).filter((i) => r.attackerItem(i) === null)
    expect(hidden.map((i) => r.domain(i))).toEqual(['inbox', 'inbox', 'inbox', 'inbox', 'web', 'web', 'web'])
    expect(r.mark(0)).toBe('read-only')
    expect(r.mark(1)).toBe('declined-scope')
    expect(r.mark(3)).toBe('injection')
    expect(r.explain(0).lines.join(' ')).toContain('Granted tag "system" (read only) covers "system_prompt"')
    expect(r.explain(5).lines.join(' ')).toContain('No granted tag covers "inbox"')
  })
  it('names only: system_prompt looks hidden and the explanation says it is a guess', () => {
    const r = buildReplay(fixtureItems(), null, coverageFor(null, grant))
    expect(r.attackerItem(0)).toBeNull()
    expect(r.attackerItem(13)).not.toBeNull() // RunEndEvent on "system", granted by name
    expect(r.explain(0).lines.join(' ')).toMatch(/Names only/)
  })
  it('finds the next injection and steps by row', () => {
    const r = buildReplay(fixtureItems(), null, coverageFor(STUB_FOREST, grant))
    expect(r.find(-1, 1, (row) => r.mark(row) === 'injection')).toBe(3)
    expect(r.find(3, 1, (row) => r.mark(row) === 'injection')).toBe(-1)
    expect(r.find(5, -1, (row) => r.mark(row) === 'read-only')).toBe(0)
  })
})

describe('alignment with an attacker file', () => {
  it('pairs by event id and shows the unseen items as gaps', () => {
    const full = [pre('u', 'user'), inj('u'), obs('o', 'inbox'), obs('m', 'model'), end('user')]
    const attacker = [full[0], full[1], full[4]]
    const a = alignWithAttackerFile(full, attacker)
    expect([...a.full]).toEqual([0, 1, 2, 3, 4])
    expect([...a.attacker]).toEqual([0, 1, -1, -1, 2])
    expect(a.attackerOnly).toBe(0)
  })
  it('keeps items only the attacker file has, as rows with a gap on the full side', () => {
    const full = [pre('u', 'user'), end('user')]
    const extra = obs('x', 'user')
    const a = alignWithAttackerFile(full, [full[0], extra, full[1]])
    expect([...a.full]).toEqual([0, -1, 1])
    expect([...a.attacker]).toEqual([0, 1, 2])
    expect(a.attackerOnly).toBe(1)
  })
  it('flags a mismatch when the file disagrees with the forest', () => {
    const full = [obs('o', 'inbox'), end('user')]
    const r = buildReplay(full, [full[0], full[1]], coverageFor(STUB_FOREST, grant))
    expect(r.explain(0).mismatch).toBe(true)
    expect(r.explain(1).mismatch).toBe(false)
    expect(r.rowOfItem(1)).toBe(1)
  })
})

describe('diffRuns', () => {
  it('marks changed payloads and inserted items', () => {
    const a = [pre('u', 'user', 'hi'), inj('u', 'one'), obs('m', 'model', 'no'), end('user')]
    const b = [pre('u', 'user', 'hi'), inj('u', 'two'), obs('w', 'web', 'page'), obs('m', 'model', 'no'), end('user')]
    const d = diffRuns(a, b)
    expect(d.rows.map((r) => r.status)).toEqual(['same', 'changed', 'added', 'same', 'same'])
    expect(d.counts).toEqual({ same: 3, changed: 1, removed: 0, added: 1 })
    expect(d.approximate).toBe(false)
  })
  it('falls back to positional pairing past the edit budget, still covering every item', () => {
    const a = Array.from({ length: 50 }, (_, i) => obs(`a${i}`, 'user'))
    const b = Array.from({ length: 60 }, (_, i) => obs(`b${i}`, 'web'))
    const d = diffRuns(a, b, 5)
    expect(d.approximate).toBe(true)
    expect(d.rows.filter((r) => r.a >= 0)).toHaveLength(50)
    expect(d.rows.filter((r) => r.b >= 0)).toHaveLength(60)
  })
  it('textDelta isolates the differing middle', () => {
    expect(textDelta('INJ:alpha!', 'INJ:beta!')).toEqual({ prefix: 'INJ:', a: 'alph', b: 'bet', suffix: 'a!' })
  })
})

describe('chartGeometry', () => {
  it('falls back to run numbers when nothing cost money, and draws the best-so-far line', () => {
    const g = chartGeometry(
      [
        { run: 1, score: 0.2, success: false, cumulativeCost: 0, evaluated: true },
        { run: 2, score: 0.8, success: true, cumulativeCost: 0, evaluated: true },
      ],
      300,
      200,
    )
    expect(g.xAxis).toBe('run')
    expect(g.points[1].x).toBeGreaterThan(g.points[0].x)
    expect(g.points[1].y).toBeLessThan(g.points[0].y)
    expect(g.bestPath).toMatch(/^M.* H.* V/)
    expect(g.xTicks.map((t) => t.label)).toEqual(['1', '2'])
  })
  it('uses cumulative cost when there is any', () => {
    const g = chartGeometry([{ run: 1, score: 0, success: false, cumulativeCost: 0.5, evaluated: true }], 300, 200)
    expect(g.xAxis).toBe('cost')
  })
})

describe('markBins', () => {
  it('squeezes the rows into bins that say what they hold', async () => {
    const { markBins, BIN } = await import('./minimap')
    const r = buildReplay(fixtureItems(), null, coverageFor(STUB_FOREST, grant))
    const bins = markBins(r, 7) // 14 rows: two per bin
    expect(bins).toHaveLength(7)
    expect(bins[0] & BIN.readOnly).toBeTruthy()
    expect(bins[0] & BIN.declinedScope).toBeTruthy()
    expect(bins[1] & BIN.injection).toBeTruthy()
    expect(bins[2] & BIN.hidden).toBeTruthy()
    expect(bins[0] & BIN.hidden).toBeFalsy()
    expect(bins[6] & BIN.runEnd).toBeTruthy()
  })
})

describe('schema 4 declines', () => {
  it('infers who declined from the grant when declined_by is not recorded, and says so', () => {
    const items = [
      pre('u', 'user'),
      { ...noInj('u', 'scope'), declined_by: null },
      pre('i', 'inbox'),
      { ...noInj('i', 'scope'), declined_by: null },
    ]
    const r = buildReplay(items, null, coverageFor(STUB_FOREST, grant))
    expect(r.mark(1)).toBe('declined-optimizer')
    expect(r.mark(3)).toBe('declined-scope')
    expect(r.explain(1).lines.join(' ')).toContain('schema 4')
  })
})
