// @vitest-environment node
/**
 * Kill-and-resume of `redscope sweep` (issue 32, point 6): a sweep killed (SIGKILL, at seeded random moments,
 * some of them as experiments finish) and then resumed leaves every experiment that had finished before the
 * kill byte-for-byte unchanged, experiments.json listing every finished folder, and no file cut short.
 * The target is the demo assistant in this process; the killed sweep is its own process, the resume runs in
 * this one.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTargetServer, type RunningTargetServer } from '../servers/target'
import { referenceTargetOptions } from '../reference-targets'
import { CliProcesses } from '../testing/cliProcesses'
import { SHIPPED_CLAIMS, treeText } from '../testing/threatModelHarness'
import { main } from './main'

const dir = mkdtempSync(join(tmpdir(), 'redscope-resume-'))
const EXFIL = join(SHIPPED_CLAIMS, 'assistant-exfiltration.json')
const procs = new CliProcesses()
let assistant: RunningTargetServer

beforeAll(async () => {
  assistant = await createTargetServer({ ...referenceTargetOptions('assistant'), concurrency: 16 }).listen(0)
})
afterAll(async () => {
  await procs.stopAll()
  await assistant.close()
  rmSync(dir, { recursive: true, force: true })
})

const sweepArgs = (out: string, models = 12) => [
  'sweep',
  '--target',
  assistant.url,
  '--claim',
  EXFIL,
  '--template',
  'naive',
  '--max-runs',
  '1',
  '--indices',
  `1-${models}`,
  '--parallel',
  '4',
  '--out',
  out,
]

async function resume(out: string, models = 12) {
  let stdout = ''
  let stderr = ''
  const code = await main(sweepArgs(out, models), { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) })
  return { code, stdout, stderr }
}

const experimentDirs = (out: string) =>
  readdirSync(out, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
/** Finished: result.json written and the manifest says complete (what a resume keeps without reopening). */
const finished = (out: string) =>
  experimentDirs(out).filter((d) => {
    if (!existsSync(join(out, d, 'result.json'))) return false
    return (JSON.parse(readFileSync(join(out, d, 'manifest.json'), 'utf8')) as { status: string }).status === 'complete'
  })
const indexed = (out: string) =>
  new Set(
    (JSON.parse(readFileSync(join(out, 'experiments.json'), 'utf8')) as { experiments: Array<{ dir: string }> }).experiments.map(
      (r) => r.dir,
    ),
  )

/** Every JSON file under `root` parses (an atomic write never leaves half a file). */
function everyJsonWhole(root: string): void {
  for (const e of readdirSync(root, { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || !e.name.endsWith('.json')) continue
    const path = join(e.parentPath, e.name)
    expect(() => JSON.parse(readFileSync(path, 'utf8')), path).not.toThrow()
  }
}

/** mulberry32: the kill moments are random but the same for a seed, so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

describe('a sweep killed and resumed', () => {
  it('a finished experiment the index lacks (killed before its row was written) is added back; the folders are untouched', async () => {
    const out = join(dir, 'lost-rows')
    expect((await resume(out)).code).toBe(0)
    const all = finished(out)
    expect(all).toHaveLength(12)
    // As a kill leaves it between result.json and the index's write: three rows missing.
    const index = JSON.parse(readFileSync(join(out, 'experiments.json'), 'utf8')) as { experiments: Array<{ dir: string }> }
    const full = readFileSync(join(out, 'experiments.json'), 'utf8')
    index.experiments.splice(2, 3)
    writeFileSync(join(out, 'experiments.json'), JSON.stringify(index, null, 2))
    const before = new Map(all.map((d) => [d, treeText(join(out, d))]))
    const r = await resume(out)
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain('12 kept')
    expect(r.stdout).toContain('experiments.json lacked 3 finished experiment(s): their rows added from their folders')
    // The same rows as the run wrote them (compared parsed: the edit above printed the others' floats as integers).
    expect(JSON.parse(readFileSync(join(out, 'experiments.json'), 'utf8'))).toEqual(JSON.parse(full))
    for (const d of all) expect(treeText(join(out, d)), d).toBe(before.get(d))
  }, 120_000)

  it('an experiment killed between its result.json and its manifest saying complete is finished with its own times', async () => {
    const out = join(dir, 'half-finished')
    expect((await resume(out, 2)).code).toBe(0)
    const [exp] = finished(out)
    const read = (name: string) => readFileSync(join(out, exp, name), 'utf8')
    const [result, manifest] = [read('result.json'), read('manifest.json')]
    // As the kill leaves it: result.json written, the manifest still in progress, no index row.
    const inProgress = JSON.parse(manifest) as { status: string; timing: { completed_at: string | null } }
    inProgress.status = 'in_progress'
    inProgress.timing.completed_at = null
    writeFileSync(join(out, exp, 'manifest.json'), JSON.stringify(inProgress, null, 2))
    const index = JSON.parse(readFileSync(join(out, 'experiments.json'), 'utf8')) as { experiments: Array<{ dir: string }> }
    index.experiments = index.experiments.filter((r) => r.dir !== exp)
    writeFileSync(join(out, 'experiments.json'), JSON.stringify(index, null, 2))
    const r = await resume(out, 2)
    expect(r.code, r.stderr).toBe(0)
    // Not restamped with the resume's times: result.json as it was, the manifest as the first run finished it.
    expect(read('result.json')).toBe(result)
    expect(read('manifest.json')).toBe(manifest)
    expect(indexed(out).has(exp)).toBe(true)
  }, 120_000)

  it('over seeds, killed at random moments: finished experiments unchanged, every one indexed, nothing cut short', async () => {
    const seeds = [1, 2, 3, 4]
    let killedMidway = 0
    for (const seed of seeds) {
      const rnd = random(seed)
      const out = join(dir, `seed-${seed}`)
      const p = procs.start(sweepArgs(out, 6))
      await p.waitFor(/threat models, 4 task\(s\) each/)
      // Killed once a seeded number of experiments have finished (0 to 5): at, or just after, an experiment's end.
      const after = Math.floor(rnd() * 6)
      await expect
        .poll(() => (existsSync(out) ? experimentDirs(out).filter((d) => existsSync(join(out, d, 'result.json'))).length : 0), {
          timeout: 60_000,
          interval: 5,
        })
        .toBeGreaterThanOrEqual(after)
      p.child.kill('SIGKILL')
      await p.exited
      const done = finished(out)
      if (done.length < 6) killedMidway += 1
      const before = new Map(done.map((d) => [d, treeText(join(out, d))]))
      everyJsonWhole(out)
      const r = await resume(out, 6)
      expect(r.code, `seed ${seed}: ${r.stderr}`).toBe(0)
      for (const d of done) expect(treeText(join(out, d)), `seed ${seed}: ${d}`).toBe(before.get(d))
      const rows = indexed(out)
      for (const d of finished(out)) expect(rows.has(d), `seed ${seed}: ${d} in experiments.json`).toBe(true)
      expect(finished(out)).toHaveLength(6)
      everyJsonWhole(out)
    }
    // The test means something only if some kills landed before the sweep was over.
    expect(killedMidway).toBeGreaterThan(0)
  }, 240_000)
})
