// @vitest-environment node
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { NodeFsStorage } from '../../adapters/storage/nodeFsStorage'
import { combinationAt, scopeOf } from '../tags'
import { Controller } from '../engine/controller'
import { runAll } from '../engine/runAll'
import { SecurityClaim, targetFactory } from '../engine/target'
import { fixtureEvaluation, ScriptedOptimizer, ScriptedTask, StubTarget, stubForest } from '../engine/testkit'
import { ExperimentsIndex, QUEUED_MS } from './experimentsIndex'
import { MemoryStorage } from './memoryStorage'
import { pyFloat } from './pyjson'
import { listExperiments } from './reader'
import type { Storage } from './storage'
import { dumpFile } from './writer'

const forest = stubForest()

/** A threat model of the stub forest: scope = the index-th combination (1..47 are distinct and non-empty). */
function controller(storage: Storage, index: number, judge = (run: number) => fixtureEvaluation(forest, run === 2)) {
  return new Controller({
    optimizerFactory: function attacker() {
      return new ScriptedOptimizer()
    },
    targetFactory: targetFactory(() => new StubTarget(forest), 2),
    securityClaim: SecurityClaim.fromTasks([new ScriptedTask('leak the code', judge), new ScriptedTask('send money', judge)], 'Leaks'),
    scope: scopeOf(combinationAt(forest.domain, BigInt(index))),
    maxRunsPerTask: 2,
    storage,
    resultsDir: 'results',
  })
}

/** A folder on disk that counts how often experiments.json is read. */
class CountingStorage extends NodeFsStorage {
  indexReads = 0
  override async readText(path: string): Promise<string> {
    if (path.endsWith('experiments.json')) this.indexReads++
    return super.readText(path)
  }
}

let root: string
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'redscope-index-'))
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

const indexFile = () => readFileSync(join(root, 'results', 'experiments.json'), 'utf8')
const rowsOf = (text: string) => (JSON.parse(text) as { experiments: Array<{ dir: string } & Record<string, unknown>> }).experiments

describe('experiments.json, kept in memory by its writers', () => {
  it('a sweep of 24 threat models, 6 at once: every row, sorted, and the file read from disk once, not once per experiment', async () => {
    const storage = new CountingStorage(root)
    const controllers = Array.from({ length: 24 }, (_, i) => controller(storage, i + 1))
    const results = await runAll(controllers, { concurrency: 6 })
    const rows = rowsOf(indexFile())
    expect(rows.map((r) => r.dir)).toEqual(results.map((r) => r.resultsDir!.replace('results/', '')).sort())
    expect(rows.every((r) => r.status === 'complete')).toBe(true)
    expect(storage.indexReads).toBe(1)
    expect((await listExperiments(storage, 'results')).map((r) => r.dir)).toEqual(rows.map((r) => r.dir))
  })

  it('prints the file byte for byte as dumping the whole document at once (indent 2, floats and non-ASCII as json.dumps)', async () => {
    const storage = new MemoryStorage()
    const index = ExperimentsIndex.of(storage, 'r')
    const row = (dir: string, asr: number) => ({
      dir,
      status: 'complete',
      summary: { asr: pyFloat(asr), n_success: 1, total_llm_usage: { calls: 0, cost: pyFloat(0) } },
      experiment: { scope: ['user', 'système'], read_only: [], task_cost_cap_usd: null, empty: {} },
      completed_at: '2026-11-29T18:44:16.404489+00:00',
    })
    const rows = [row('b-1', 0.5), row('a-2', 1), row('c-3', 1e-5), row('a-2', 0)]
    for (const r of rows) await index.upsert(r)
    expect(storage.files.get('r/experiments.json')).toBe(dumpFile({ schema_version: 5, experiments: [rows[3], rows[0], rows[2]] }))
  })

  it('keeps the rows of another writer on the same folder (another process), fields it does not know included', async () => {
    const ours = new CountingStorage(root)
    const theirs = new NodeFsStorage(root)
    await controller(theirs, 1).run()
    // A newer superred adds a field to its row: kept as it is.
    const withExtra = rowsOf(indexFile()).map((r) => ({ ...r, from_a_newer_writer: { kept: true } }))
    writeFileSync(join(root, 'results', 'experiments.json'), dumpFile({ schema_version: 5, experiments: withExtra }))
    await controller(ours, 2).run()
    await controller(theirs, 3).run()
    await controller(ours, 4).run()
    await controller(ours, 5).run()
    const rows = rowsOf(indexFile())
    expect(rows).toHaveLength(5)
    expect(rows.find((r) => r.dir === withExtra[0].dir)).toMatchObject({ from_a_newer_writer: { kept: true } })
    // Ours read the file when it started and when the other writer had replaced it, not for each experiment.
    expect(ours.indexReads).toBe(2)
  })

  it('a storage without a revision token compares the file with what it wrote, and merges what another writer added', async () => {
    const storage = new MemoryStorage()
    const other = new MemoryStorage()
    await controller(storage, 1).run()
    // Someone else's row lands in the same file between two of our experiments.
    await controller(other, 2).run()
    const theirRow = rowsOf(other.files.get('results/experiments.json')!)[0]
    const mine = rowsOf(storage.files.get('results/experiments.json')!)
    storage.files.set('results/experiments.json', dumpFile({ schema_version: 5, experiments: [...mine, theirRow] }))
    const third = await controller(storage, 3).run()
    const dirs = rowsOf(storage.files.get('results/experiments.json')!).map((r) => r.dir)
    expect(dirs).toEqual([mine[0].dir, theirRow.dir, third.resultsDir!.replace('results/', '')].sort())
  })

  it('resume in a later process: tasks kept, the same row replaced (one row per experiment), a second experiment added', async () => {
    let failSecond = true
    const judge = (run: number) => {
      if (failSecond && run > 0) throw new Error('judge down')
      return fixtureEvaluation(forest, run === 2)
    }
    const first = await controller(new NodeFsStorage(root), 7, judge).run()
    expect(first.taskResults.map((t) => t.stopReason)).toEqual(['error', 'error'])
    const before = rowsOf(indexFile())
    failSecond = false
    // A new process: a new storage object, the same folder.
    const later = new CountingStorage(root)
    const again = await controller(later, 7, judge).run()
    expect(again.resultsDir).toBe(first.resultsDir)
    expect(again.taskResults.map((t) => t.stopReason)).toEqual(['success', 'success'])
    await controller(later, 8).run()
    const rows = rowsOf(indexFile())
    expect(rows.map((r) => r.dir)).toEqual([...new Set([before[0].dir, ...rows.map((r) => r.dir)])].sort())
    expect(rows).toHaveLength(2)
    expect(rows.find((r) => r.dir === before[0].dir)!.summary).toMatchObject({ n_success: 2 })
    expect(later.indexReads).toBe(1)
  })
})

/** A MemoryStorage whose experiments.json writes are counted, can be held back, and can fail. */
class IndexWatchingStorage extends MemoryStorage {
  indexWrites: number[] = []
  failures = 0
  private gate: Promise<void> | null = null
  private open: (() => void) | null = null
  hold(): void {
    this.gate = new Promise((resolve) => {
      this.open = resolve
    })
  }
  release(): void {
    this.open?.()
    this.gate = null
  }
  override async writeTextAtomic(path: string, text: string): Promise<void> {
    if (path.endsWith('experiments.json')) {
      await this.gate
      if (this.failures > 0) {
        this.failures--
        throw new Error('disk full')
      }
      this.indexWrites.push(text.length)
    }
    return super.writeTextAtomic(path, text)
  }
}

describe('experiments.json in a sweep: rows queued, the index settled when the sweep ends', () => {
  it('a threat model goes on to the next while the index write is held, and the sweep returns once every row is written', async () => {
    const storage = new IndexWatchingStorage()
    storage.hold()
    let ended = 0
    const sweep = runAll(
      Array.from({ length: 24 }, (_, i) => controller(storage, i + 1)),
      {
        concurrency: 6,
        reporter: {
          threatModelEnd: () => {
            ended++
          },
        },
      },
    )
    let returned = false
    void sweep.then(() => {
      returned = true
    })
    await vi.waitFor(() => expect(ended).toBe(24))
    expect(returned).toBe(false)
    storage.release()
    const results = await sweep
    const rows = rowsOf(storage.files.get('results/experiments.json')!)
    expect(rows.map((r) => r.dir)).toEqual(results.map((r) => r.resultsDir!.replace('results/', '')).sort())
  })

  it('writes the index a bounded number of bytes: a few times the final file, not a file per experiment', async () => {
    const storage = new IndexWatchingStorage()
    await runAll(
      Array.from({ length: 47 }, (_, i) => controller(storage, i + 1)),
      { concurrency: 8 },
    )
    const final = storage.files.get('results/experiments.json')!.length
    expect(rowsOf(storage.files.get('results/experiments.json')!)).toHaveLength(47)
    // An eighth more rows a write: at most ~9x the final file past the first 8 rows, which are written as they come.
    const total = storage.indexWrites.reduce((a, b) => a + b, 0)
    expect(total / final).toBeLessThan(11)
    expect(storage.indexWrites.length).toBeLessThan(47)
  })

  it('a queued row that waits for company is written within QUEUED_MS, without the sweep ending', async () => {
    vi.useFakeTimers()
    try {
      const storage = new MemoryStorage()
      const index = ExperimentsIndex.of(storage, 'r')
      for (let i = 10; i < 26; i++) await index.upsert({ dir: `d-${i}` })
      index.queue({ dir: 'd-late' })
      await vi.advanceTimersByTimeAsync(QUEUED_MS - 10)
      expect(storage.files.get('r/experiments.json')).not.toContain('d-late')
      await vi.advanceTimersByTimeAsync(20)
      expect(rowsOf(storage.files.get('r/experiments.json')!).map((r) => r.dir)).toContain('d-late')
    } finally {
      vi.useRealTimers()
    }
  })

  it('settle writes again what a queued write failed to write', async () => {
    const storage = new IndexWatchingStorage()
    storage.failures = 1
    const index = ExperimentsIndex.of(storage, 'r')
    index.queue({ dir: 'a' })
    await vi.waitFor(() => expect(storage.failures).toBe(0))
    expect(storage.files.has('r/experiments.json')).toBe(false)
    await index.settle()
    expect(rowsOf(storage.files.get('r/experiments.json')!).map((r) => r.dir)).toEqual(['a'])
  })

  it('an index that cannot be written is reported, naming the file, and the sweep still returns its results', async () => {
    const storage = new IndexWatchingStorage()
    storage.failures = 1_000
    const messages: string[] = []
    const results = await runAll([controller(storage, 1), controller(storage, 2)], {
      reporter: {
        diagnostic: (_info, level, message) => {
          messages.push(`${level}: ${message}`)
        },
      },
    })
    expect(results.every((r) => r.taskResults.length === 2 && !r.cancelled)).toBe(true)
    expect(messages).toEqual(['error: failed to finalize results (continuing): Error: could not write results/experiments.json: disk full'])
    expect(await storage.exists(`${results[0].resultsDir}/result.json`)).toBe(true)
  })
})
