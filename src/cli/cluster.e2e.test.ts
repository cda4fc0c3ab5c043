// @vitest-environment node
/**
 * A local simulated cluster: two target server processes (as two replicas),
 * four `redscope sweep` worker processes started as an Indexed Job starts its
 * pods (JOB_COMPLETION_INDEX=0..3, --shard-from-env), one of them killed
 * mid-run (SIGKILL, as a node going away) and started again; then `redscope
 * merge`. The merged tree must equal the tree of the same sweep run in one
 * process, and `redscope results` must read it. Every process is stopped at
 * the end, also when the test fails.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { NodeFsStorage } from '../adapters/storage/nodeFsStorage'
import { treeSnapshot } from '../core/results/treeSnapshot'
import { CliProcesses } from '../testing/cliProcesses'

const dir = mkdtempSync(join(tmpdir(), 'redscope-cluster-'))
const procs = new CliProcesses()
const CLAIM = 'public/claims/assistant-exfiltration.json'
// 48 threat models of the assistant's forest, 4 tasks each, two payloads (the second answers the delimiters defence).
const SWEEP = [
  '--claim',
  CLAIM,
  '--indices',
  '1-48',
  '--template',
  'naive',
  '--template',
  'delimiter_escape',
  '--max-runs',
  '2',
  '--parallel',
  '2',
  '--concurrency',
  '4',
]

afterAll(async () => {
  await procs.stopAll()
  rmSync(dir, { recursive: true, force: true })
}, 60_000)

async function startTarget(): Promise<string> {
  const p = procs.start(['serve-target', 'assistant', '--port', '0'])
  return (await p.waitFor(/serving assistant at (http:\/\/127\.0\.0\.1:\d+)/))[1]
}

/** The snapshot of a tree, without the previous_NN/ copies superred's resume keeps of an interrupted experiment. */
async function comparable(root: string) {
  const snap = await treeSnapshot(new NodeFsStorage(root), '', ['shards'])
  return Object.fromEntries(Object.entries(snap).filter(([path]) => !/\/previous_\d+\//.test(path)))
}

function rows(out: string): number {
  const path = join(out, 'experiments.json')
  if (!existsSync(path)) return 0
  try {
    return (JSON.parse(readFileSync(path, 'utf8')) as { experiments: unknown[] }).experiments.length
  } catch {
    return 0 // caught between a write and its rename: read again
  }
}

describe('a sweep on a simulated Kubernetes Indexed Job', () => {
  it('four workers with JOB_COMPLETION_INDEX, one killed and restarted, merge into the tree one process writes', async () => {
    const targets = await Promise.all([startTarget(), startTarget()])

    const whole = procs.start(['sweep', '--target', targets[0], ...SWEEP, '--out', join(dir, 'whole')])
    const worker = (i: number) =>
      procs.start(
        [
          'sweep',
          '--target',
          targets[0],
          '--target',
          targets[1],
          ...SWEEP,
          '--shard-from-env',
          'JOB_COMPLETION_INDEX',
          '--shards',
          '4',
          '--out',
          join(dir, `shard-${i}`),
        ],
        { JOB_COMPLETION_INDEX: String(i) },
      )
    const workers = [0, 1, 2, 3].map(worker)
    // Each pod attacks replica I mod 2.
    for (const [i, w] of workers.entries())
      await w.waitFor(new RegExp(`shard ${i}/4: 12 of 48 threat models.*\\(${targets[i % 2].replace(/[.]/g, '\\.')}\\)`))

    // Worker 1 loses its node once it has finished a few threat models.
    const victim = workers[1]
    const out1 = join(dir, 'shard-1')
    while (rows(out1) < 2) {
      if (victim.child.exitCode !== null) throw new Error(`worker 1 finished before it could be killed:\n${victim.stdout()}`)
      await new Promise((r) => setTimeout(r, 20))
    }
    victim.child.kill('SIGKILL')
    expect(await victim.exited).toBeNull()
    const before = rows(out1)
    expect(before).toBeLessThan(12)

    // The pod restarts with the same index and the same folder: it resumes.
    const again = worker(1)
    const codes = await Promise.all([whole.exited, workers[0].exited, workers[2].exited, workers[3].exited, again.exited])
    expect(codes, [whole, ...workers, again].map((p) => p.stderr()).join('\n')).toEqual([0, 0, 0, 0, 0])
    const kept = again.stdout().match(/kept \(finished before\)/g) ?? []
    expect(kept.length).toBeGreaterThanOrEqual(before)
    expect(again.stdout()).toMatch(/12 of 12 threat models done \(\d+ run now, \d+ kept\)/)

    // The shards in any order, then the merged tree against the one-process tree.
    const merged = join(dir, 'merged')
    const merge = procs.start(['merge', ...[2, 0, 3, 1].map((i) => join(dir, `shard-${i}`)), '--out', merged])
    expect(await merge.exited, merge.stderr()).toBe(0)
    expect(merge.stdout()).toMatch(/48 experiment\(s\).*\n.*shards 0, 1, 2, 3 of 4; 48 of 48 threat models finished/)
    const [got, want] = await Promise.all([comparable(merged), comparable(join(dir, 'whole'))])
    expect(Object.keys(got).length).toBeGreaterThan(48 * 10)
    expect(Object.keys(got)).toEqual(Object.keys(want))
    expect(got).toEqual(want)
    // The compiled CLI's writer thread (dist-cli/writerThread.js) printed every run's trajectory file, once: what the
    // attacker saw is derived on read (core/results/attackerView.ts), so no run has an attacker file beside it.
    const trajectories = Object.entries(want).filter(([path]) => /\/trajectories\/run_\d{5}(\.attacker)?\.json$/.test(path))
    expect(trajectories.length).toBeGreaterThanOrEqual(48 * 4)
    expect(trajectories.filter(([path]) => path.endsWith('.attacker.json'))).toEqual([])
    for (const [path, file] of trajectories) {
      expect(file, path).toMatchObject({ schema_version: 5, run_number: expect.any(Number), trajectory: expect.any(Array) })
    }
    expect(trajectories.some(([, file]) => (file as { trajectory: unknown[] }).trajectory.length > 4)).toBe(true)

    const results = procs.start(['results', merged])
    expect(await results.exited, results.stderr()).toBe(0)
    const summary = JSON.parse(results.stdout()) as {
      sweep: { finished: number; threat_models: number; shards: unknown }
      experiments: Array<{ complete: boolean }>
    }
    expect(summary.sweep).toMatchObject({ threat_models: 48, finished: 48, shards: { count: 4, present: [0, 1, 2, 3] } })
    expect(summary.experiments).toHaveLength(48)
    expect(summary.experiments.every((e) => e.complete)).toBe(true)
  }, 240_000)
})
