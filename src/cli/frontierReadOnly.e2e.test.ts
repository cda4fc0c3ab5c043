// @vitest-environment node
/**
 * `redscope frontier --read-only` against the demo assistant served by
 * `redscope serve-target assistant` (its own process, stopped at the end).
 * The full space has 10,583 threat models; sweeping it all takes longer than
 * a test may (docs/frontier.md gives the one-off brute-force figure). So the
 * answer is checked by its certificate, run by `redscope sweep
 * --threat-models`: every minimal win's lower neighbours lose, every maximal
 * loss's upper neighbours win (which, with the wins and losses themselves,
 * proves the frontiers under the order), and random threat models of the
 * whole space, read-only grants included, land on the side the frontiers say.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { coverKey, coverLeq, describeModel, GrantLattice, ThreatModelLattice, type Cover } from '../core/lattice'
import { SweepRecordSchema } from '../core/sweep'
import { buildDomain } from '../core/tags'
import { ASSISTANT_FOREST } from '../reference-targets/assistant/forest'
import { readFrontier, runMain as run, servedAssistant } from '../testing/servedAssistant'

const served = servedAssistant('redscope-frontier-ro-')
const dir = served.dir
const ATTACKER = ['--claim', 'public/claims/assistant-exfiltration.json', '--template', 'naive', '--max-runs', '1']
const space = new GrantLattice(new ThreatModelLattice(buildDomain(ASSISTANT_FOREST)))
const coverOf = (m: { scope: string[]; read_only: string[] }) => space.coverOfModel({ scope: m.scope, readOnly: m.read_only })

function neighbours(c: Cover, up: boolean): Cover[] {
  const out: Cover[] = []
  for (let b = 0; b < space.height; b++) if (up ? space.canAdd(c, b) : space.isTop(c, b)) out.push(space.toggled(c, b))
  return out
}

describe('redscope frontier --read-only on the demo assistant', () => {
  it('searches all 10,583 threat models with read-only grants, and a sweep of its certificate and of random threat models agrees', async () => {
    const out = join(dir, 'frontier')
    const r = await run('frontier', '--target', served.target, ...ATTACKER, '--read-only', '--per-task', '--out', out)
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const f = readFrontier(out)
    expect(f.threat_models_total).toBe(10_583)
    expect(f.search.read_only).toBe(true)
    expect(f.complete).toBe(true)
    expect(f.claim.undecided).toBe(0)
    expect(f.claim.decided_by_inference).toBe(10_583 - f.evaluated)
    expect(f.evaluated).toBeLessThanOrEqual(f.bound.evaluations_at_most)
    expect(f.bound.height).toBe(20)
    expect(f.evaluated).toBeLessThan(150)
    expect(f.contradictions).toEqual([])
    // Evaluations name what they read as well as what they write, and are read back as the same threat models.
    expect(f.evaluations.some((e) => e.read_only.length > 0)).toBe(true)
    for (const m of [...f.claim.minimal_wins, ...f.claim.maximal_losses])
      expect(m.words).toBe(describeModel({ scope: m.scope, readOnly: m.read_only }))
    // The widest losers read what they do not write: e.g. "... and reads system, tools and user and nothing else".
    expect(f.claim.maximal_losses.some((m) => m.read_only.length > 0 && /and reads .+ and nothing else$/.test(m.words))).toBe(true)
    expect(f.claim.minimal_wins.length).toBeGreaterThan(0)

    // The certificate and a deterministic random sample of the whole space.
    const wins = f.claim.minimal_wins.map(coverOf)
    const losses = f.claim.maximal_losses.map(coverOf)
    const expected = new Map<string, { cover: Cover; win: boolean }>()
    for (const w of wins) for (const c of neighbours(w, false)) expected.set(coverKey(c), { cover: c, win: false })
    for (const l of losses) for (const c of neighbours(l, true)) expected.set(coverKey(c), { cover: c, win: true })
    const all = Array.from(space.elements(), (c) => c.slice())
    for (let i = 0; i < 40; i++) {
      const c = all[(i * 7919 + 13) % all.length]
      expected.set(coverKey(c), { cover: c, win: wins.some((w) => coverLeq(w, c)) })
    }
    // The frontiers say every sampled element is on exactly one side.
    for (const { cover } of expected.values())
      expect(wins.some((w) => coverLeq(w, cover)) !== losses.some((l) => coverLeq(cover, l))).toBe(true)
    const entries = [...expected.values()].filter((e) => !space.coverOfModel({ scope: [], readOnly: [] }).every((w, i) => w === e.cover[i]))
    const models = entries.map((e) => space.modelOf(e.cover)).map((m) => ({ scope: m.scope, read_only: m.readOnly }))
    const file = join(dir, 'sample.json')
    writeFileSync(file, JSON.stringify(models.filter((m) => m.scope.length + m.read_only.length > 0)))
    const sweepOut = join(dir, 'sweep')
    const sweep = await run('sweep', '--target', served.target, ...ATTACKER, '--threat-models', file, '--parallel', '8', '--out', sweepOut)
    expect(sweep.code).toBe(0)
    const record = SweepRecordSchema.parse(JSON.parse(readFileSync(join(sweepOut, 'sweep.json'), 'utf8')))
    const wrong: string[] = []
    for (const m of record.models) {
      const manifest = JSON.parse(readFileSync(join(sweepOut, m.dir, 'manifest.json'), 'utf8')) as { tasks: Array<{ success: boolean }> }
      const won = manifest.tasks.some((t) => t.success)
      const e = expected.get(coverKey(space.coverOfModel({ scope: m.scope, readOnly: m.readOnly })))
      if (e === undefined || e.win !== won) wrong.push(`${m.scope.join('+')} read ${m.readOnly.join('+')}: ${won ? 'won' : 'lost'}`)
    }
    expect(record.models.length).toBeGreaterThan(40)
    expect(wrong).toEqual([])
  }, 420_000)

  it('resumes a read-only search, and refuses to resume a scope-only one in the same folder', async () => {
    const out = join(dir, 'resumed')
    const cut = await run('frontier', '--target', served.target, ...ATTACKER, '--read-only', '--budget-runs', '4', '--out', out)
    expect(cut.code).toBe(1)
    const first = readFrontier(out)
    expect(first).toMatchObject({ evaluated: 4, complete: false })
    const other = await run('frontier', '--target', served.target, ...ATTACKER, '--out', out)
    expect(other.code).toBe(2)
    expect(other.stderr).toContain('already holds another frontier search')
    const again = await run('frontier', '--target', served.target, ...ATTACKER, '--read-only', '--out', out)
    expect(again.code).toBe(0)
    expect(again.stdout).toContain('resuming with 4 evaluation(s) from frontier.json')
    const done = readFrontier(out)
    expect(done.complete).toBe(true)
    expect(done.evaluations.slice(0, 4)).toEqual(first.evaluations)
  }, 420_000)
})
