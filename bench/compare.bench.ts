/**
 * `redscope compare` on two sweeps of N threat models × 4 tasks (trees with
 * experiments.json, as a finished sweep leaves them), as a user runs it: a
 * whole process, `--json` to /dev/null, plus JUnit and SARIF written. N =
 * 1, 500 and 1,000 in turn (A B C A B C ...) so that drift moves all alike;
 * the ratio 1,000 / 500 shows how the time grows (2.0 is linear; start-up
 * makes it less), and the same above the 1-model floor shows the growth alone. Issue 34's goal: under 2 s for 1,000.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { NodeFsStorage } from '../src/adapters/storage/nodeFsStorage'
import { writeTree, type TreeModel } from '../src/core/compare/testTrees'
import { med, row } from './util'

const ROUNDS = 5
const GOALS = ['leak the code', 'send money', 'share the file', 'delete the mail']
const TAGS = ['inbox', 'calendar', 'drive', 'bank_account', 'tools', 'model_identity', 'web', 'notes', 'contacts', 'sms', 'photos']

/** N distinct scopes (subsets of TAGS by the bits of i + 1); outcomes by a fixed rule, HEAD flipping a few. */
function models(n: number, head: boolean): TreeModel[] {
  return Array.from({ length: n }, (_, i) => ({
    scope: TAGS.filter((_, b) => ((i + 1) >> b) & 1),
    outcomes: GOALS.map((_, t) => ((i * 7 + t * 3) % 5 === 0) !== (head && (i + t) % 37 === 0)),
  }))
}

function wallMs(args: string[]): number {
  const start = performance.now()
  const r = spawnSync(process.execPath, ['bin/redscope.mjs', ...args], { encoding: 'utf8', maxBuffer: 1 << 28 })
  const ms = performance.now() - start
  if (r.status !== 0) throw new Error(`redscope ${args.join(' ')} exited ${r.status}: ${r.stderr}`)
  return ms
}

export default async function compareBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'redscope-compare-bench-'))
  try {
    // 1 × 4: the floor every compare pays (start-up, the command's modules), so that what grows with N shows alone.
    const sizes = [1, 500, 1000]
    for (const n of sizes) {
      for (const side of ['base', 'head'] as const) {
        await writeTree(new NodeFsStorage(join(dir, `${side}-${n}`)), { goals: GOALS, models: models(n, side === 'head') }, '', true)
      }
    }
    const args = (n: number) => [
      'compare',
      join(dir, `base-${n}`),
      join(dir, `head-${n}`),
      '--json',
      '--junit',
      join(dir, `r-${n}.xml`),
      '--sarif',
      join(dir, `r-${n}.sarif`),
    ]
    for (const n of sizes) wallMs(args(n)) // warm the disk cache
    const samples = new Map(sizes.map((n) => [n, [] as number[]]))
    for (let i = 0; i < ROUNDS; i++) for (const n of sizes) samples.get(n)!.push(wallMs(args(n)))
    console.log(`whole-process wall time, ${ROUNDS} rounds of each, ${GOALS.length} tasks per threat model`)
    for (const n of sizes)
      row(
        `compare ${n.toLocaleString('en-US')} × ${GOALS.length} vs ${n.toLocaleString('en-US')} × ${GOALS.length}, median ms`,
        med(samples.get(n)!),
      )
    const [floor, a, b] = sizes.map((n) => samples.get(n)!)
    row('compare 1,000 / compare 500 (pairwise median; 2.0 is linear)', med(b.map((x, i) => x / a[i])))
    row(
      'the same above the 1 × 4 floor: (1,000 − 1) / (500 − 1), pairwise median',
      med(b.map((x, i) => (x - floor[i]) / (a[i] - floor[i]))),
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
