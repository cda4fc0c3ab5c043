/**
 * Shards run on the real engine (Controller, StubTarget, scripted tasks) into
 * separate in-memory trees, merged, and compared with the same sweep run as
 * one: union, order-independence, idempotence, and the refusals.
 */
import fc from 'fast-check'
import { Controller } from '../engine/controller'
import { SecurityClaim, targetFactory } from '../engine/target'
import { fixtureEvaluation, ScriptedOptimizer, ScriptedTask, StubTarget, stubForest } from '../engine/testkit'
import { MemoryStorage } from '../results/memoryStorage'
import { MergeConflictError } from '../results/mergeTrees'
import { treeSnapshot } from '../results/treeSnapshot'
import { countCombinations, forestOf, scopeOf } from '../tags'
import { mergeSweepRecords, SweepMismatchError } from './mergeRecords'
import { isComplete, mergeSweepTrees } from './mergeSweep'
import { SWEEP_FILE, SweepRecordSchema, type SweepRecord } from './record'
import { claimSweepFile, runSweep, shardRecord, type SweepDefinition } from './runSweep'
import { selectionOf, type SelectedModel } from './select'
import { shardItems, shardOf, WHOLE, type Shard } from './shard'

const forest = stubForest()
const TOTAL = Number(countCombinations(forest.domain))

/** Task i of a threat model succeeds when its scope holds `user` and i is odd: outcomes depend on the scope only. */
function controllerFor(storage: MemoryStorage, m: SelectedModel, flip = false) {
  const tasks = [1, 2, 3].map(
    (i) => new ScriptedTask(`goal ${i}`, () => fixtureEvaluation(forest, (m.scope.includes('user') && i % 2 === 1) !== flip, 0.25 * i)),
  )
  return new Controller({
    optimizerFactory: function scripted() {
      return new ScriptedOptimizer()
    },
    targetFactory: targetFactory(() => new StubTarget(forest), 2),
    securityClaim: SecurityClaim.fromTasks(tasks, 'Leaks'),
    scope: scopeOf(m.scope.map((n) => forest.domain.get(n)!)),
    readOnly: scopeOf(m.readOnly.map((n) => forest.domain.get(n)!)),
    maxRunsPerTask: 1,
    storage,
    domain: forest.domain,
    attackerLabel: 'scripted',
    targetLabel: 'stub',
  })
}

const def: SweepDefinition = {
  target: 'stub',
  claim: 'Leaks',
  attacker: 'scripted',
  forest: forestOf(forest.domain),
  selection: { kind: 'all' },
  settings: { model: null, maxRunsPerTask: 1, taskCostCapUsd: null, taskTimeCapS: null, includeFeedback: true },
  claimDigest: 'c0ffee',
  attackerDigest: 'beef',
}

const defOf = (indices: readonly bigint[]): SweepDefinition => ({
  ...def,
  selection: { kind: 'indices', ranges: [...indices].sort((a, b) => Number(a - b)).join(',') },
})

async function runShard(
  indices: readonly bigint[],
  shard: Shard,
  options: { flip?: boolean; createdAt?: number; defn?: SweepDefinition } = {},
) {
  const storage = new MemoryStorage()
  const selection = selectionOf(forest.domain, { kind: 'indices', indices })
  const dirOf = (m: SelectedModel) => controllerFor(storage, m).label
  const defn = options.defn ?? defOf(indices)
  const record = shardRecord(defn, selection, shard, dirOf, options.createdAt ?? 1000 + shard.index)
  await claimSweepFile(storage, record, `shard-${shard.index}`)
  const summary = await runSweep({
    storage,
    models: shardItems(selection, shard),
    dirOf,
    controllerFor: (m) => controllerFor(storage, m, options.flip),
    goals: ['goal 1', 'goal 2', 'goal 3'],
    parallel: 3,
  })
  return { storage, record, summary }
}

const bytes = (s: MemoryStorage) => [...s.files.entries()].sort(([a], [b]) => (a < b ? -1 : 1))

const arbSweep = fc.tuple(
  fc.uniqueArray(fc.integer({ min: 1, max: TOTAL - 1 }), { minLength: 1, maxLength: 9 }).map((xs) => xs.map(BigInt)),
  fc.integer({ min: 1, max: 4 }),
)

describe('merging the shards of a sweep', () => {
  it('the merged tree equals the same sweep run in one process (clocks and ids masked), whatever order the shards come in', async () => {
    await fc.assert(
      fc.asyncProperty(arbSweep, fc.infiniteStream(fc.boolean()), async ([indices, n], coin) => {
        const whole = await runShard(indices, WHOLE)
        const shards = await Promise.all(Array.from({ length: n }, (_, i) => runShard(indices, shardOf(i, n))))
        const sources = shards.map((s, i) => ({ label: `shard-${i}`, storage: s.storage }))
        const flips = coin.take(n)
        const shuffled = [...sources].sort(() => (flips.next().value ? 1 : -1))
        const out = new MemoryStorage()
        const report = await mergeSweepTrees(shuffled, out)
        expect(isComplete(report)).toBe(true)
        expect(report.experiments).toBe(indices.length)
        // The merged record says it came from n shards; the one-process record from one. Nothing else may differ.
        expect(await treeSnapshot(out, '', ['shards'])).toEqual(await treeSnapshot(whole.storage, '', ['shards']))
        const record = SweepRecordSchema.parse(JSON.parse(await out.readText(SWEEP_FILE)))
        expect(record.plan!.shards).toEqual({ count: n, indices: Array.from({ length: n }, (_, i) => i) })
        expect(record.id).toBe(whole.record.id)

        // Byte for byte the same in the reverse order; merging the result again with any of its parts changes nothing.
        const reversed = new MemoryStorage()
        await mergeSweepTrees([...shuffled].reverse(), reversed)
        expect(bytes(reversed)).toEqual(bytes(out))
        const before = bytes(out)
        const again = await mergeSweepTrees([{ label: 'out', storage: out }, ...sources.filter(() => flips.next().value)], out)
        expect(again.copied).toBe(0)
        expect(bytes(out)).toEqual(before)
      }),
      { numRuns: 10 },
    )
  }, 120_000)

  it('a threat model run by two shards with the same outcomes is merged once; with other outcomes the merge is refused, naming experiment, task and field, and writes nothing', async () => {
    const indices = [3n, 5n, 9n]
    const a = await runShard(indices, WHOLE)
    const b = await runShard(indices, WHOLE)
    const out = new MemoryStorage()
    const report = await mergeSweepTrees(
      [
        { label: 'a', storage: a.storage },
        { label: 'b', storage: b.storage },
      ],
      out,
    )
    expect(report.experiments).toBe(3)
    expect(report.notes.join('\n')).toMatch(
      /3 experiment\(s\) were run more than once with the same outcomes, and are merged once: scripted__stub__leaks__no-llm-[0-9a-f]{8} \(in a and b\)/,
    )

    const flipped = await runShard(indices, WHOLE, { flip: true })
    const untouched = new MemoryStorage()
    const attempt = mergeSweepTrees(
      [
        { label: 'a', storage: a.storage },
        { label: 'flipped', storage: flipped.storage },
      ],
      untouched,
    )
    await expect(attempt).rejects.toThrow(MergeConflictError)
    await expect(attempt).rejects.toThrow(
      /a and flipped disagree about experiment scripted__stub__leaks__no-llm-[0-9a-f]{8}: task 1's status is '(success|failed)' in a but '(success|failed)' in flipped/,
    )
    expect(untouched.files.size).toBe(0)
  })

  it('refuses shards of two different sweeps, naming the field, before writing anything', async () => {
    const one = await runShard([1n, 2n], shardOf(0, 2))
    const other = await runShard([1n, 2n], shardOf(1, 2), {
      defn: { ...def, selection: { kind: 'indices', ranges: '1-2' }, claim: 'Other claim' },
    })
    const out = new MemoryStorage()
    await expect(
      mergeSweepTrees(
        [
          { label: 'one', storage: one.storage },
          { label: 'other', storage: other.storage },
        ],
        out,
      ),
    ).rejects.toThrow(/one and other are not parts of one sweep: their claim differ \(claim: 'Leaks' vs 'Other claim'\)/)
    expect(out.files.size).toBe(0)
    const plain = new MemoryStorage()
    await plain.writeTextAtomic('experiments.json', '{"schema_version": 5, "experiments": []}')
    await expect(
      mergeSweepTrees(
        [
          { label: 'one', storage: one.storage },
          { label: 'plain', storage: plain },
        ],
        out,
      ),
    ).rejects.toThrow(/one holds a sweep \(it has sweep.json\) but plain does not/)
  })

  it('says which shards are missing and which threat models a stopped shard left unfinished', async () => {
    const indices = [1n, 2n, 3n, 4n, 5n, 6n]
    const s0 = await runShard(indices, shardOf(0, 3))
    const s1 = await runShard(indices, shardOf(1, 3))
    // Shard 1 was stopped: one of its experiments lost its result.json and manifest went back to in progress.
    const [dir] = s1.record.models.map((m) => m.dir)
    const manifest = JSON.parse(await s1.storage.readText(`${dir}/manifest.json`))
    await s1.storage.writeTextAtomic(`${dir}/manifest.json`, JSON.stringify({ ...manifest, status: 'in_progress' }))
    await s1.storage.remove(`${dir}/result.json`)
    const out = new MemoryStorage()
    const report = await mergeSweepTrees(
      [
        { label: 's0', storage: s0.storage },
        { label: 's1', storage: s1.storage },
      ],
      out,
    )
    expect(report.missingShards).toEqual([2])
    expect(report.inProgress).toEqual([dir])
    expect(isComplete(report)).toBe(false)
  })
})

describe('an experiment whose row never reached experiments.json', () => {
  it('gets the row its writer would have written, with its saved name and its unpriced calls', async () => {
    const indices = [1n, 2n]
    const whole = await runShard(indices, WHOLE)
    const index = JSON.parse(whole.storage.files.get('experiments.json')!) as { experiments: { dir: string }[] }
    const [lost, kept] = index.experiments
    // A run stopped between the experiment's result.json and the index, with the redscope extras already written.
    const unpriced = [
      { index: 0, calls: 2, prompt_tokens: 30, completion_tokens: 4 },
      { index: 2, calls: 1, prompt_tokens: 5, completion_tokens: 1 },
    ]
    await whole.storage.writeTextAtomic(`${lost.dir}/unpriced.json`, JSON.stringify({ schema_version: 5, tasks: unpriced }))
    await whole.storage.writeTextAtomic(`${lost.dir}/threat_model.json`, JSON.stringify({ schema_version: 5, name: 'insider' }))
    await whole.storage.writeTextAtomic('experiments.json', JSON.stringify({ ...index, experiments: [kept] }))
    const out = new MemoryStorage()
    await mergeSweepTrees([{ label: 'whole', storage: whole.storage }], out)
    const rows = (JSON.parse(out.files.get('experiments.json')!) as { experiments: Record<string, unknown>[] }).experiments
    const row = rows.find((r) => r.dir === lost.dir)!
    expect(row.threat_model_name).toBe('insider')
    expect(row.unpriced).toEqual({ calls: 3, prompt_tokens: 35, completion_tokens: 5 })
    expect(row.status).toBe('complete')
    // The row the index had for the other experiment is kept as it was: no extras invented.
    expect(rows.find((r) => r.dir === kept.dir)).toEqual(kept)
  })
})

describe('a shard resumes', () => {
  it('rerun after a stop, it finishes only what is missing, and the result equals an uninterrupted run', async () => {
    const indices = [1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n]
    const selection = selectionOf(forest.domain, { kind: 'indices', indices })
    const storage = new MemoryStorage()
    const dirOf = (m: SelectedModel) => controllerFor(storage, m).label
    const defn = defOf(indices)
    const record = shardRecord(defn, selection, WHOLE, dirOf, 5)
    await claimSweepFile(storage, record, 'out')
    const stop = new AbortController()
    let ran = 0
    const first = await runSweep({
      storage,
      models: selection,
      dirOf,
      controllerFor: (m) => controllerFor(storage, m),
      goals: ['goal 1', 'goal 2', 'goal 3'],
      parallel: 1,
      signal: stop.signal,
      progress: {
        modelEnd: () => {
          if (++ran === 3) stop.abort()
        },
      },
    })
    expect(first.ran + first.kept).toBe(3)
    expect(first.unfinished).toBe(5)
    // Same arguments again: the three finished ones are kept without reopening them.
    await claimSweepFile(storage, { ...record, createdAt: 99 }, 'out')
    const second = await runSweep({
      storage,
      models: selection,
      dirOf,
      controllerFor: (m) => controllerFor(storage, m),
      goals: ['goal 1', 'goal 2', 'goal 3'],
      parallel: 2,
    })
    expect(second).toMatchObject({ kept: 3, ran: 5, unfinished: 0 })
    expect(JSON.parse(await storage.readText(SWEEP_FILE)).createdAt).toBe(5)
    const uninterrupted = await runShard(indices, WHOLE, { defn })
    expect(await treeSnapshot(storage)).toEqual(await treeSnapshot(uninterrupted.storage))
  })

  it("refuses a folder that holds another shard's or another sweep's results", async () => {
    const s0 = await runShard([1n, 2n, 3n], shardOf(0, 2))
    const selection = selectionOf(forest.domain, { kind: 'indices', indices: [1n, 2n, 3n] })
    const dirOf = (m: SelectedModel) => controllerFor(s0.storage, m).label
    const defn = defOf([1n, 2n, 3n])
    await expect(claimSweepFile(s0.storage, shardRecord(defn, selection, shardOf(1, 2), dirOf, 1), 'results/shard-0')).rejects.toThrow(
      /results\/shard-0 holds shard 0\/2 of this sweep, and this is shard 1\/2: give each shard its own folder/,
    )
    await expect(
      claimSweepFile(s0.storage, shardRecord({ ...defn, attacker: 'other' }, selection, shardOf(0, 2), dirOf, 1), 'results/shard-0'),
    ).rejects.toThrow(SweepMismatchError)
  })
})

describe('merging records', () => {
  const base = (models: SweepRecord['models'], indices: number[], createdAt: number): SweepRecord => ({
    v: 1,
    id: 'sweep-abc',
    createdAt,
    title: 't',
    target: 'stub',
    claim: 'Leaks',
    attacker: 'scripted',
    forest: forestOf(forest.domain),
    models,
    plan: {
      selection: { kind: 'all' },
      total: '3',
      shards: { count: 3, indices },
      settings: def.settings,
      claimDigest: 'c',
      attackerDigest: 'a',
    },
  })
  const m = (dir: string, index: string) => ({ dir, index, scope: ['user'], readOnly: [] })

  it('unions models in reference order and shard indices; keeps the earliest start', () => {
    const merged = mergeSweepRecords([
      { label: 'b', record: base([m('x-2', '2')], [2], 30) },
      { label: 'a', record: base([m('x-10', '10'), m('x-1', '1')], [0], 20) },
    ])
    expect(merged.models.map((x) => x.dir)).toEqual(['x-1', 'x-2', 'x-10'])
    expect(merged.plan!.shards.indices).toEqual([0, 2])
    expect(merged.createdAt).toBe(20)
  })

  it('refuses one threat model listed two ways, and two shardings of one sweep', () => {
    expect(() =>
      mergeSweepRecords([
        { label: 'a', record: base([m('x-1', '1')], [0], 1) },
        { label: 'b', record: base([m('x-1', '2')], [1], 1) },
      ]),
    ).toThrow(/a and b list threat model x-1 differently/)
    const other = base([], [0], 1)
    expect(() =>
      mergeSweepRecords([
        { label: 'a', record: base([], [0], 1) },
        { label: 'b', record: { ...other, plan: { ...other.plan!, shards: { count: 4, indices: [0] } } } },
      ]),
    ).toThrow(/number of shards/)
  })
})
