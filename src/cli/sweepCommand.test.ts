// @vitest-environment node
/**
 * `redscope sweep` and `redscope merge` in process, against the demo
 * assistant on a real loopback server: what they print, write and refuse.
 * The multi-process run (workers killed and restarted) is cluster.e2e.test.ts.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SweepRecordSchema } from '../core/sweep'
import { createTargetServer, type RunningTargetServer } from '../servers/target'
import { referenceTargetOptions } from '../reference-targets'
import { SHIPPED_CLAIMS, treeText } from '../testing/threatModelHarness'
import { main } from './main'

const dir = mkdtempSync(join(tmpdir(), 'redscope-sweep-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const EXFIL = join(SHIPPED_CLAIMS, 'assistant-exfiltration.json')
let assistant: RunningTargetServer

async function run(...argv: string[]) {
  let stdout = ''
  let stderr = ''
  const code = await main(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) })
  return { code, stdout, stderr }
}

const record = (out: string) => SweepRecordSchema.parse(JSON.parse(readFileSync(join(out, 'sweep.json'), 'utf8')))
const sweepArgs = (...extra: string[]) => [
  'sweep',
  '--target',
  assistant.url,
  '--claim',
  EXFIL,
  '--template',
  'naive',
  '--max-runs',
  '1',
  ...extra,
]

beforeAll(async () => {
  assistant = await createTargetServer(referenceTargetOptions('assistant')).listen(0)
})
afterAll(async () => {
  await assistant.close()
})

describe('redscope sweep', () => {
  it('runs every selected threat model, prints a line each and a summary, and writes sweep.json first', async () => {
    const out = join(dir, 'containing')
    const r = await run(...sweepArgs('--containing', 'inbox,user', '--parallel', '3', '--out', out))
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const lines = r.stdout.trim().split('\n')
    expect(lines[0]).toMatch(
      /^sweep-[0-9a-f]{12}: 72 threat models, 4 task\(s\) each, against redscope-assistant \(http:\/\/127\.0\.0\.1:\d+\); 3 at once, 2 session\(s\) each; results in /,
    )
    // Each threat model's ASR and the pooled one with their n and 95% interval, in the words every view uses.
    expect(lines.filter((l) => /^\[\s*\d+\/72\] #\d+ \[.*inbox.*\]: ASR \d+% \(\d of 4 tasks, 95% CI \d+–\d+%\)$/.test(l))).toHaveLength(72)
    expect(lines.at(-1)).toMatch(
      /^72 of 72 threat models done \(72 run now, 0 kept\); 72 broke the claim; ASR \d+% \(\d+ of 288 tasks, 95% CI \d+–\d+%\), the tasks of every threat model pooled$/,
    )
    const rec = record(out)
    expect(rec).toMatchObject({
      target: 'redscope-assistant',
      claim: 'assistant-exfiltration',
      attacker: expect.stringMatching(/^template-[0-9a-f]{8}$/),
      title: 'Sweep of 72 threat models: assistant-exfiltration against redscope-assistant',
    })
    expect(rec.plan).toMatchObject({
      selection: { kind: 'containing', tags: ['inbox', 'user'] },
      total: '72',
      shards: { count: 1, indices: [0] },
      settings: { model: null, maxRunsPerTask: 1, includeFeedback: true },
    })
    expect(rec.models).toHaveLength(72)
    expect(rec.models.every((m) => m.scope.includes('inbox') && m.scope.includes('user') && /^\d+$/.test(m.index))).toBe(true)
    // Each experiment is where the record says, and reads back complete.
    const summary = JSON.parse((await run('results', out)).stdout) as {
      sweep: { finished: number; verdict: { n: number; wilson_95: number[] } }
      experiments: Array<{ dir: string }>
    }
    expect(summary.sweep.finished).toBe(72)
    expect(summary.sweep.verdict.n).toBe(288)
    expect(summary.sweep.verdict.wilson_95).toHaveLength(2)
    expect(summary.experiments.map((e) => e.dir).sort()).toEqual(rec.models.map((m) => m.dir).sort())

    // The same command again: everything is kept, nothing reruns.
    const again = await run(...sweepArgs('--containing', 'inbox,user', '--parallel', '3', '--out', out))
    expect(again.code).toBe(0)
    expect(again.stdout).toContain('72 of 72 threat models done (0 run now, 72 kept)')
    expect(record(out).createdAt).toBe(rec.createdAt)
  }, 120_000)

  it('a shard takes every Nth threat model; the shards merge into the whole sweep, and merging again changes nothing', async () => {
    const outs = [0, 1, 2].map((i) => join(dir, `indices-${i}`))
    for (const [i, out] of outs.entries()) {
      const r = await run(...sweepArgs('--indices', '1-10,300-', '--shard', `${i}/3`, '--out', out))
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout).toContain(`shard ${i}/3: ${i === 0 ? 6 : 5} of 16 threat models`)
    }
    expect(outs.map((o) => record(o).models.map((m) => Number(m.index)))).toEqual([
      [1, 4, 7, 10, 302, 305],
      [2, 5, 8, 300, 303],
      [3, 6, 9, 301, 304],
    ])
    const merged = join(dir, 'indices-merged')
    const m = await run('merge', outs[2], outs[0], outs[1], '--out', merged)
    expect(m.stderr).toBe('')
    expect(m.code).toBe(0)
    expect(m.stdout).toMatch(/^merged 3 tree\(s\) into .*: 16 experiment\(s\), 16 copied in \(\d+ files\)\n/)
    expect(m.stdout).toContain('shards 0, 1, 2 of 3; 16 of 16 threat models finished')
    expect(record(merged).models.map((x) => Number(x.index))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 300, 301, 302, 303, 304, 305])
    const before = treeText(merged)
    const again = await run('merge', ...outs, merged, '--out', merged)
    expect(again.code).toBe(0)
    expect(again.stdout).toContain('16 experiment(s), 0 copied in')
    expect(treeText(merged)).toBe(before)
  }, 120_000)

  it('a list of threat models from a file, with read_only, as `redscope combinations` prints or as objects', async () => {
    const file = join(dir, 'models.json')
    writeFileSync(file, JSON.stringify({ threat_models: [{ scope: ['inbox'], read_only: ['user'] }, { scope: ['drive'] }, ['calendar']] }))
    const out = join(dir, 'file')
    const r = await run(...sweepArgs('--threat-models', file, '--out', out))
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/#0 \[inbox\] read-only \[user\]: /)
    const rec = record(out)
    expect(rec.plan!.selection).toMatchObject({ kind: 'file', name: 'models.json' })
    expect(rec.models.map((m) => [m.index === '' ? null : 'n', m.scope, m.readOnly])).toEqual(
      expect.arrayContaining([
        [null, ['inbox'], ['user']],
        ['n', ['drive'], []],
        ['n', ['calendar'], []],
      ]),
    )
  }, 120_000)

  it('refuses what it cannot run, in one line, before anything is written (exit 2)', async () => {
    const badModels = join(dir, 'bad-models.json')
    writeFileSync(badModels, JSON.stringify([{ scope: 'inbox' }]))
    const out = join(dir, 'refused')
    const cases: Array<[string[], string | RegExp]> = [
      [sweepArgs('--out', out), 'say which threat models to run: --all, --containing TAG, --indices RANGES or --threat-models FILE'],
      [sweepArgs('--all', '--indices', '1-3', '--out', out), '--all and --indices: choose the threat models one way'],
      [sweepArgs('--containing', 'inbx', '--out', out), /--containing: "inbx" is not a tag of this forest \(the forest's tags: system, /],
      [sweepArgs('--indices', '1-400', '--out', out), '--indices 1-400: #400 is not a threat model of this forest (it has #0 to #305)'],
      [
        sweepArgs('--threat-models', badModels, '--out', out),
        /--threat-models .*bad-models\.json: \[0\]\.scope: Invalid input: expected array, received string \(expected /,
      ],
      [sweepArgs('--all', '--shard', '3/3', '--out', out), '--shard 3/3: 3 is not a shard of 3'],
      [sweepArgs('--all', '--shards', '3', '--out', out), '--shards N needs --shard-from-env VAR'],
      [sweepArgs('--all', '--shard-from-env', 'NO_SUCH_INDEX_VAR', '--shards', '3', '--out', out), 'NO_SUCH_INDEX_VAR is not set'],
      [sweepArgs('--all', '--shard', '0/2', '--shard-from-env', 'X', '--out', out), 'give the shard one way'],
      [
        sweepArgs('--all', '--optimizer', 'human', '--out', out),
        '--optimizer human: must be one of template, llm, replay, served: a sweep runs unattended',
      ],
      [sweepArgs('--all', '--parallel', '0', '--out', out), '--parallel 0: must be an integer of at least 1'],
    ]
    for (const [argv, message] of cases) {
      const r = await run(...argv)
      expect(r.code, `${argv.join(' ')}\n${r.stdout}${r.stderr}`).toBe(2)
      expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1)
      if (typeof message === 'string') expect(r.stderr).toContain(message)
      else expect(r.stderr).toMatch(message)
    }
    expect(() => readFileSync(join(out, 'sweep.json'))).toThrow()
  }, 120_000)

  it("refuses a folder that holds another shard's results, and one of another sweep", async () => {
    const out = join(dir, 'taken')
    expect((await run(...sweepArgs('--indices', '1-4', '--shard', '0/2', '--out', out))).code).toBe(0)
    const other = await run(...sweepArgs('--indices', '1-4', '--shard', '1/2', '--out', out))
    expect(other.code).toBe(2)
    expect(other.stderr).toContain(
      `${out} holds shard 0/2 of this sweep, and this is shard 1/2: give each shard its own folder (e.g. results/shard-1)`,
    )
    const different = await run(...sweepArgs('--indices', '1-5', '--shard', '0/2', '--out', out))
    expect(different.code).toBe(2)
    expect(different.stderr).toContain(
      `${out} already holds another sweep's results (Sweep of 4 threat models: assistant-exfiltration against redscope-assistant)`,
    )
  }, 120_000)
})

describe('redscope merge', () => {
  it('says what is missing and exits 1 (0 with --allow-incomplete); refuses two sweeps and disagreeing copies, writing nothing', async () => {
    const a = join(dir, 'm-0')
    const b = join(dir, 'm-1')
    expect((await run(...sweepArgs('--indices', '1-6', '--shard', '0/3', '--out', a))).code).toBe(0)
    expect((await run(...sweepArgs('--indices', '1-6', '--shard', '1/3', '--out', b))).code).toBe(0)
    const part = await run('merge', a, b, '--out', join(dir, 'm-part'))
    expect(part.code).toBe(1)
    expect(part.stderr).toContain('the sweep is incomplete: shard 2/3 missing. Rerun those shards (they resume), then merge again.')
    expect((await run('merge', a, b, '--out', join(dir, 'm-part2'), '--allow-incomplete')).code).toBe(0)

    const other = join(dir, 'm-other')
    expect((await run(...sweepArgs('--indices', '1-6', '--shard', '2/3', '--max-runs', '2', '--out', other))).code).toBe(0)
    const mixed = join(dir, 'm-mixed')
    const refused = await run('merge', a, other, '--out', mixed)
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain(
      `${a} and ${other} are not parts of one sweep: their maxRunsPerTask differ (plan.settings.maxRunsPerTask: 1 vs 2) (nothing was written)`,
    )
    expect(() => readFileSync(join(mixed, 'experiments.json'))).toThrow()

    // The same shard run twice into two folders, one copy then altered: the merge names the experiment, task and field.
    const twin = join(dir, 'm-twin')
    cpSync(a, twin, { recursive: true })
    const exp = record(twin).models[0].dir
    const manifestPath = join(twin, exp, 'manifest.json')
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'))
    manifest.tasks[1].status = manifest.tasks[1].status === 'success' ? 'failed' : 'success'
    writeFileSync(manifestPath, JSON.stringify(manifest))
    const conflict = await run('merge', a, twin, '--out', join(dir, 'm-conflict'))
    expect(conflict.code).toBe(2)
    expect(conflict.stderr).toContain(`${a} and ${twin} disagree about experiment ${exp}: task 2's status is`)
    expect((await run('merge', join(dir, 'nope'), '--out', join(dir, 'm-x'))).stderr).toContain('nope: no such folder')
  }, 120_000)

  it('refuses a damaged shard naming the file, and writes nothing', async () => {
    const good = join(dir, 'd-good')
    expect((await run(...sweepArgs('--indices', '1-3', '--out', good))).code).toBe(0)
    const exp = record(good).models[0].dir
    const task = readdirSync(join(good, exp, 'tasks'))[0]
    const files = {
      result: join(exp, 'result.json'),
      task: join(exp, 'tasks', task, 'task.json'),
      manifest: join(exp, 'manifest.json'),
      run: join(exp, 'tasks', task, 'trajectories', 'run_00001.json'),
      domain: join(exp, 'domain.json'),
      iterations: join(exp, 'tasks', task, 'iterations.json'),
    }
    const damages: Array<[string, string, (text: string) => string | Buffer, RegExp]> = [
      ['truncated', files.result, (t) => t.slice(0, t.length / 2), /not JSON/],
      ['empty', files.task, () => '', /not JSON/],
      ['garbage', files.run, () => '\u0000\u0001 garbage', /not JSON/],
      ['wrong shape', files.iterations, () => JSON.stringify({ schema_version: 5, index: 'one', goal: 'g', runs: {} }), /index: /],
      ['deeply nested', files.result, () => `${'['.repeat(5000)}${']'.repeat(5000)}`, /nested deeper than 1,000 levels/],
      [
        'invalid UTF-8',
        files.domain,
        (t) => Buffer.concat([Buffer.from(t.slice(0, 20)), Buffer.from([0xff, 0xfe]), Buffer.from(t.slice(20))]),
        /not UTF-8 text: the byte 0xff at offset 20/,
      ],
      ['wrong shape manifest', files.manifest, () => JSON.stringify({ status: 'complete' }), /manifest\.json: /],
    ]
    for (const [label, file, damage, problem] of damages) {
      const shard = join(dir, `d-${label.replace(/ /g, '-')}`)
      cpSync(good, shard, { recursive: true })
      writeFileSync(join(shard, file), damage(readFileSync(join(shard, file), 'utf8')))
      const out = join(dir, `d-out-${label.replace(/ /g, '-')}`)
      const r = await run('merge', good, shard, '--out', out)
      expect(r.code, `${label}: ${r.stderr}`).toBe(2)
      expect(r.stderr, label).toContain(`${shard}/${file}: `)
      expect(r.stderr, label).toMatch(problem)
      expect(r.stderr, label).toContain('(nothing was written)')
      expect(existsSync(out), label).toBe(false)
      // Merged into itself (an earlier merge in --out), the damage is refused too, and the folder left as it was.
      const before = treeText(shard)
      expect((await run('merge', shard, '--out', shard)).code, label).toBe(2)
      expect(treeText(shard), label).toBe(before)
    }
  }, 120_000)

  it('never merges a folder into itself: --out the only input, the same folder by another path, or one inside the other', async () => {
    const a = join(dir, 'self-a')
    expect((await run(...sweepArgs('--indices', '1-2', '--out', a))).code).toBe(0)
    const before = treeText(a)
    const alias = join(dir, 'self-alias')
    symlinkSync(a, alias)
    const cases: Array<[string[], string]> = [
      [['merge', a, '--out', a], `--out ${a} is the only input: a folder is never merged into itself`],
      [['merge', alias, '--out', a], `${alias} is --out ${a} (the same folder)`],
      [['merge', a, '--out', join(a, 'merged')], `--out ${join(a, 'merged')} is inside the input ${a}`],
      [['merge', join(a, record(a).models[0].dir), '--out', a], `is inside --out ${a}`],
    ]
    for (const [argv, message] of cases) {
      const r = await run(...argv)
      expect(r.code, argv.join(' ')).toBe(2)
      expect(r.stderr, argv.join(' ')).toContain(message)
      expect(treeText(a)).toBe(before)
    }
  }, 120_000)
})
