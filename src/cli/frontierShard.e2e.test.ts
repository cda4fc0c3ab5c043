// @vitest-environment node
/**
 * `redscope frontier --per-task --shard I/N` and `redscope merge` against the
 * demo assistant served by `redscope serve-target assistant` (its own
 * process, stopped at the end): two shards merged give the unsharded search's
 * frontiers, the claim's computed from the tasks' without another run; a
 * shard cut short makes an incomplete merge that completes once the shard is
 * rerun (it resumes).
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FrontierFile } from '../core/frontier'
import { readFrontier, runMain as run, servedAssistant } from '../testing/servedAssistant'
import { treeText } from '../testing/threatModelHarness'

const served = servedAssistant('redscope-frontier-shard-')
const dir = served.dir
const ATTACKER = ['--claim', 'public/claims/assistant-exfiltration.json', '--template', 'naive', '--max-runs', '1', '--per-task']
const models = (xs: Array<{ scope: string[]; read_only: string[] }>) =>
  xs.map((m) => `${m.scope.join('+')}|${m.read_only.join('+')}`).sort()
/** What must not depend on sharding: the frontiers, for the claim and each task, and what was searched. */
const answerOf = (f: FrontierFile) => ({
  total: f.threat_models_total,
  complete: f.complete,
  contradictions: f.contradictions,
  claim: { wins: models(f.claim.minimal_wins), losses: models(f.claim.maximal_losses), undecided: f.claim.undecided },
  tasks: f.tasks.map((t) => ({ index: t.index, goal: t.goal, wins: models(t.minimal_wins), losses: models(t.maximal_losses) })),
})

describe('redscope frontier --shard and redscope merge', () => {
  it('two shards merged equal the unsharded search (frontiers of the claim and of every task), every evaluation linked to its tree', async () => {
    const whole = join(dir, 'whole')
    expect((await run('frontier', '--target', served.target, ...ATTACKER, '--out', whole)).code).toBe(0)
    const shards = [0, 1].map((i) => join(dir, `shard-${i}`))
    for (const [i, out] of shards.entries()) {
      const r = await run('frontier', '--target', served.target, ...ATTACKER, '--shard', `${i}/2`, '--out', out)
      expect(r.stderr).toBe('')
      expect(r.code).toBe(0)
      expect(r.stdout).toContain(`(shard ${i}/2: task(s) ${i === 0 ? '1, 3' : '2, 4'})`)
      const f = readFrontier(out)
      expect(f.shard).toEqual({ index: i, count: 2, tasks: i === 0 ? [1, 3] : [2, 4] })
      expect(f.claim.minimal_wins).toEqual([])
    }
    const merged = join(dir, 'merged')
    const m = await run('merge', ...shards, '--out', merged)
    // Shards search independently, so some threat models were evaluated by both: merged once, and said so.
    expect(m.stderr.split('\n').filter((l) => l !== '' && !l.startsWith('note: '))).toEqual([])
    expect(m.code).toBe(0)
    const f = readFrontier(merged)
    const u = readFrontier(whole)
    expect(answerOf(f)).toEqual(answerOf(u))
    expect(f.claim.minimal_wins.length).toBeGreaterThan(0)
    expect(f.merged_from).toBe(2)
    expect(f.claim.decided_by_inference).toBe(f.threat_models_total - f.evaluated)
    // Every evaluation of every shard, once, its results tree in the merged folder.
    const shardEvals = new Set(shards.flatMap((s) => readFrontier(s).evaluations.map((e) => e.index)))
    expect(new Set(f.evaluations.map((e) => e.index))).toEqual(shardEvals)
    for (const e of f.evaluations) expect(existsSync(join(merged, e.runs[0], 'manifest.json'))).toBe(true)
    for (const w of f.claim.minimal_wins) expect(m.stdout).toContain(`#${w.index} ${w.words} wins`)
    // Merged again with the earlier merge among the inputs (a glob that takes --out in): nothing changes.
    const before = treeText(merged)
    const again = await run('merge', ...shards, merged, '--out', merged)
    expect(again.code, again.stderr).toBe(0)
    expect(treeText(merged)).toBe(before)
  }, 420_000)

  it('a shard cut short makes an incomplete merge (exit 1, named); rerun, it resumes and the merge completes', async () => {
    const a = join(dir, 'r-0')
    const b = join(dir, 'r-1')
    expect((await run('frontier', '--target', served.target, ...ATTACKER, '--shard', '0/2', '--out', a)).code).toBe(0)
    const cut = await run('frontier', '--target', served.target, ...ATTACKER, '--shard', '1/2', '--budget-runs', '2', '--out', b)
    expect(cut.code).toBe(1)
    const merged = join(dir, 'r-merged')
    const partial = await run('merge', a, b, '--out', merged)
    expect(partial.code).toBe(1)
    expect(partial.stderr).toContain('shard(s) 1 stopped before their frontiers were complete')
    expect(readFrontier(merged)).toMatchObject({ complete: false, claim: { minimal_wins: [] } })
    const missing = await run('merge', a, '--out', join(dir, 'r-missing'))
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('shard(s) 1/2 missing')

    const again = await run('frontier', '--target', served.target, ...ATTACKER, '--shard', '1/2', '--out', b)
    expect(again.code).toBe(0)
    expect(again.stdout).toContain('resuming with 2 evaluation(s) from frontier.json')
    // Another shard's folder is another search.
    const wrong = await run('frontier', '--target', served.target, ...ATTACKER, '--shard', '0/2', '--out', b)
    expect(wrong.code).toBe(2)
    const done = await run('merge', a, b, '--out', merged)
    expect(done.code).toBe(0)
    expect(answerOf(readFrontier(merged))).toEqual(answerOf(readFrontier(join(dir, 'whole'))))
  }, 420_000)

  it("a damaged file in a shard's repeat-2 tree is refused before anything is written, repeat-1 included", async () => {
    const shards = [0, 1].map((i) => join(dir, `rep-${i}`))
    for (const [i, out] of shards.entries()) {
      expect((await run('frontier', '--target', served.target, ...ATTACKER, '--repeat', '2', '--shard', `${i}/2`, '--out', out)).code).toBe(
        0,
      )
    }
    const exp = readdirSync(join(shards[1], 'repeat-2')).find((d) => existsSync(join(shards[1], 'repeat-2', d, 'result.json')))!
    const damaged = join(shards[1], 'repeat-2', exp, 'result.json')
    writeFileSync(damaged, '{"schema_version": 5, "cut')
    const out = join(dir, 'rep-merged')
    const r = await run('merge', ...shards, '--out', out)
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`${shards[1]}/repeat-2/${exp}/result.json: `)
    expect(r.stderr).toContain('(nothing was written)')
    expect(existsSync(out)).toBe(false)
  }, 420_000)

  it("refuses --shard without --per-task: the claim's own search is sequential", async () => {
    const r = await run(
      'frontier',
      '--target',
      served.target,
      '--claim',
      'public/claims/assistant-exfiltration.json',
      '--template',
      'naive',
      '--shard',
      '0/2',
      '--out',
      join(dir, 'x'),
    )
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('needs --per-task')
    // Without --claim the target's served claim is searched; the demo assistant serves none, and says so.
    const none = await run('frontier', '--target', served.target, '--template', 'naive', '--out', join(dir, 'y'))
    expect(none.code).toBe(2)
    expect(none.stderr).toContain('serves no claim of its own, so a claim file is needed (--claim CLAIM.json)')
  }, 60_000)
})
