// @vitest-environment node
/**
 * `redscope frontier` against the demo assistant served by `redscope
 * serve-target assistant` in its own process (stopped at the end, also on
 * failure). Its defences are deterministic, so the truth is known: a full
 * `redscope sweep --all` of the same attacker. The frontier must equal the
 * sweep's minimal winning (and maximal losing) threat models, for the claim
 * and each task, with far fewer evaluations; a search cut short resumes.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { coverLeq, ThreatModelLattice, type Cover } from '../core/lattice'
import { SweepRecordSchema } from '../core/sweep'
import { buildDomain } from '../core/tags'
import { ASSISTANT_FOREST } from '../reference-targets/assistant/forest'
import { readFrontier, runMain as run, servedAssistant } from '../testing/servedAssistant'

const served = servedAssistant('redscope-frontier-')
const dir = served.dir
const CLAIM = 'public/claims/assistant-exfiltration.json'
const ATTACKER = ['--claim', CLAIM, '--template', 'naive', '--max-runs', '1']
const lattice = new ThreatModelLattice(buildDomain(ASSISTANT_FOREST))
const sorted = (scopes: string[][]) => scopes.map((s) => [...s].sort().join('+')).sort()

/** The brute-force frontier of the sweep's verdicts: what the search must find. */
function frontierOfSweep(rows: Array<{ cover: Cover; win: boolean; scope: string[] }>) {
  const wins = rows.filter((r) => r.win)
  const losses = rows.filter((r) => !r.win)
  return {
    minimalWins: sorted(wins.filter((a) => !wins.some((b) => b !== a && coverLeq(b.cover, a.cover))).map((r) => r.scope)),
    maximalLosses: sorted(losses.filter((a) => !losses.some((b) => b !== a && coverLeq(a.cover, b.cover))).map((r) => r.scope)),
  }
}

describe('redscope frontier on the demo assistant', () => {
  it("finds the full sweep's minimal winning threat models, per task too, evaluating a tenth of them or fewer", async () => {
    const sweepOut = join(dir, 'sweep')
    const sweep = await run('sweep', '--target', served.target, ...ATTACKER, '--all', '--parallel', '8', '--out', sweepOut)
    expect(sweep.code).toBe(0)
    const record = SweepRecordSchema.parse(JSON.parse(readFileSync(join(sweepOut, 'sweep.json'), 'utf8')))
    expect(record.models).toHaveLength(305)
    const rows = record.models.map((m) => {
      const manifest = JSON.parse(readFileSync(join(sweepOut, m.dir, 'manifest.json'), 'utf8')) as {
        tasks: Array<{ index: number; success: boolean }>
      }
      const tasks = [1, 2, 3, 4].map((i) => manifest.tasks.find((t) => t.index === i)?.success === true)
      return { scope: m.scope, cover: lattice.coverOfNames(m.scope), tasks }
    })

    const out = join(dir, 'frontier')
    const r = await run('frontier', '--target', served.target, ...ATTACKER, '--per-task', '--out', out)
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const f = readFrontier(out)
    expect(f.threat_models_total).toBe(305)
    expect(f.complete).toBe(true)
    expect(f.evaluated).toBeLessThanOrEqual(30)
    expect(f.evaluated).toBe(f.evaluations.length)
    expect(f.claim.decided_by_inference).toBe(305 - f.evaluated)
    expect(f.claim.undecided).toBe(0)
    expect(f.evaluated).toBeLessThanOrEqual(f.bound.evaluations_at_most)

    const claimTruth = frontierOfSweep(rows.map((x) => ({ ...x, win: x.tasks.some(Boolean) })))
    expect(claimTruth.minimalWins.length).toBeGreaterThan(0)
    expect(sorted(f.claim.minimal_wins.map((m) => m.scope))).toEqual(claimTruth.minimalWins)
    expect(sorted(f.claim.maximal_losses.map((m) => m.scope))).toEqual(claimTruth.maximalLosses)
    expect(f.tasks.map((t) => t.index)).toEqual([1, 2, 3, 4])
    for (const t of f.tasks) {
      const truth = frontierOfSweep(rows.map((x) => ({ ...x, win: x.tasks[t.index - 1] })))
      expect(sorted(t.minimal_wins.map((m) => m.scope))).toEqual(truth.minimalWins)
      expect(sorted(t.maximal_losses.map((m) => m.scope))).toEqual(truth.maximalLosses)
    }
    expect(f.contradictions).toEqual([])
    // Each point of the frontier links to the experiment that decided it, and says who wins in words.
    for (const m of f.claim.minimal_wins) {
      expect(m.runs).toHaveLength(1)
      const manifest = JSON.parse(readFileSync(join(out, m.runs[0], 'manifest.json'), 'utf8')) as {
        status: string
        tasks: Array<{ success: boolean }>
      }
      expect(manifest.status).toBe('complete')
      expect(manifest.tasks.some((t) => t.success)).toBe(true)
      expect(m.words).toBe(`an attacker who writes ${m.scope.join(' and ')} and reads nothing else`)
      expect(r.stdout).toContain(`#${m.index} ${m.words} wins`)
    }
    // The maximal losses are printed too, each in words that claim only the runs made.
    expect(f.claim.maximal_losses.length).toBeGreaterThan(0)
    expect(r.stdout).toContain(`the widest attackers that did not break it in the runs made (${f.claim.maximal_losses.length}):\n`)
    for (const m of f.claim.maximal_losses)
      expect(r.stdout).toContain(`#${m.index} ${m.words} loses: not broken in 1 run by ${f.search.attacker}`)
    expect(r.stdout).toMatch(
      new RegExp(`^evaluated ${f.evaluated} of 305 threat models \\([\\d.]+%\\), ${305 - f.evaluated} decided by inference$`, 'm'),
    )
  }, 420_000)

  it('--repeat 2 runs each evaluated threat model twice, a results tree per repeat, and keeps both runs in every tally', async () => {
    const out = join(dir, 'repeated')
    const r = await run('frontier', '--target', served.target, ...ATTACKER, '--repeat', '2', '--out', out)
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const f = readFrontier(out)
    expect(f.search).toMatchObject({ repeat: 2, per_task: false, seed: 'low' })
    expect(f.complete).toBe(true)
    for (const e of f.evaluations) {
      expect(e.outcomes).toHaveLength(2)
      expect(e.claim.runs).toBe(2)
      expect(e.runs).toEqual([e.runs[0], `repeat-2/${e.runs[0]}`])
      // The demo's defences are deterministic: both runs agree, and the interval says how little two runs prove.
      expect(e.outcomes[0]).toEqual(e.outcomes[1])
      for (const path of e.runs) {
        const manifest = JSON.parse(readFileSync(join(out, path, 'manifest.json'), 'utf8')) as { status: string }
        expect(manifest.status).toBe('complete')
      }
    }
    const win = f.claim.minimal_wins[0]
    const tally = f.evaluations.find((e) => e.index === win.index)!.claim
    expect(tally).toMatchObject({ wins: 2, runs: 2, rate_high: 1 })
    expect(tally.rate_low).toBeCloseTo(0.3424, 3)
    expect(r.stdout).toMatch(/wins: 100% \(2 of 2 runs, 95% CI \d+–100%\)/)
  }, 420_000)

  it('a search cut short by its run budget says so, and the same command without it resumes without rerunning anything', async () => {
    const out = join(dir, 'resumed')
    const cut = await run('frontier', '--target', served.target, ...ATTACKER, '--budget-runs', '3', '--out', out)
    expect(cut.code).toBe(1)
    expect(cut.stderr).toContain('the run budget ran out before the frontiers were complete')
    const first = readFrontier(out)
    expect(first).toMatchObject({ evaluated: 3, complete: false })
    expect(first.claim.undecided).toBeGreaterThan(0)

    const again = await run('frontier', '--target', served.target, ...ATTACKER, '--out', out)
    expect(again.code).toBe(0)
    expect(again.stdout).toContain('resuming with 3 evaluation(s) from frontier.json')
    const done = readFrontier(out)
    expect(done.complete).toBe(true)
    // The three evaluations are kept as they were, and none of them was asked for again.
    expect(done.evaluations.slice(0, 3)).toEqual(first.evaluations)
    const asked = again.stdout
      .split('\n')
      .filter((l) => /^\[\d+\] claim: #\d+/.test(l))
      .map((l) => /#(\d+)/.exec(l)![1])
    expect(asked.filter((i) => first.evaluations.some((e) => e.index === i))).toEqual([])
    expect(asked.length).toBe(done.evaluated - 3)

    // Another claim in the same folder is another search: refused before anything runs.
    const other = await run(
      'frontier',
      '--target',
      served.target,
      '--claim',
      'public/claims/assistant-money-transfer.json',
      '--template',
      'naive',
      '--out',
      out,
    )
    expect(other.code).toBe(2)
    expect(other.stderr).toContain('already holds another frontier search')
  }, 420_000)
})
