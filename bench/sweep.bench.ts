/**
 * A sweep of 1,000 threat models, as the run console runs one, headless:
 * the in-process assistant target (deterministic policy), the shipped
 * exfiltration claim (4 tasks, one per defence), the template attacker with
 * three escalating payloads, runAll under a concurrency cap. Twice: engine
 * only (nothing persisted), then every result written as a superred tree on
 * disk (NodeFsStorage in a temp folder; MemoryStorage scans every key on
 * exists/remove, which would measure the test double, not the sweep). Then
 * the sweep analysis (per-tag painting, wider-did-worse pairs) over the
 * 1,000 outcomes. Prints wall time, throughput and peak memory (sampled
 * every 100 ms: reading the RSS is a system call).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { setMaxListeners } from 'node:events'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { NodeFsStorage } from '../src/adapters/storage/nodeFsStorage'
import { payloadNamed, templateOptimizerFactory } from '../src/attackers'
import { claimFromFile, parseClaimFile } from '../src/claims'
import { Controller, runAll, targetFactory, type ThreatModelResult } from '../src/core/engine'
import { listExperiments, type Storage } from '../src/core/results'
import { paintForest, widerDidWorse, type ModelOutcome } from '../src/core/sweep'
import {
  AGENTDOJO_FOREST,
  combinationAt,
  countCombinations,
  scopeOf,
  subtreeCounts,
  type Forest,
  type SecurityDomain,
} from '../src/core/tags'
import { ASSISTANT_FOREST, REFERENCE_TARGETS } from '../src/reference-targets'
import { median, row, time } from './util'

const MODELS = 1000
const PARALLEL = 8

function peakSampler() {
  let heap = 0
  let rss = 0
  const sample = () => {
    const m = process.memoryUsage()
    heap = Math.max(heap, m.heapUsed)
    rss = Math.max(rss, m.rss)
  }
  sample()
  const timer = setInterval(sample, 100)
  return {
    stop: () => {
      clearInterval(timer)
      sample()
      return { heapMb: heap / 2 ** 20, rssMb: rss / 2 ** 20 }
    },
  }
}

interface Model {
  readonly scope: string[]
  readonly readOnly: string[]
}

/** 1,000 distinct identities: each non-empty combination as the scope, with read_only none, then one visible tag it does not cover. */
export function threatModels(domain: SecurityDomain, count = MODELS): Model[] {
  const counts = subtreeCounts(domain)
  const total = countCombinations(domain)
  const models: Model[] = []
  for (const ro of [null, 'model_identity', 'user', 'inbox', 'calendar', 'drive', 'system_prompt']) {
    for (let i = 1n; i < total && models.length < count; i++) {
      const tags = combinationAt(domain, i, counts)
      if (ro !== null && tags.some((t) => t.includes(domain.get(ro)!))) continue
      models.push({ scope: tags.map((t) => t.name), readOnly: ro === null ? [] : [ro] })
    }
  }
  return models
}

export async function sweep(models: readonly Model[], storage: Storage | null) {
  const make = REFERENCE_TARGETS.assistant.factory()
  const domain = make().securityDomain
  const file = parseClaimFile(readFileSync('public/claims/assistant-exfiltration.json', 'utf8'), 'assistant-exfiltration.json')
  const factory = targetFactory(make, 4)
  const templates = ['naive', 'important_instructions', 'spoofed_sender'].map((n) => payloadNamed(n)!.template)
  const controllers = models.map(
    (m) =>
      new Controller({
        optimizerFactory: templateOptimizerFactory({ templates }),
        targetFactory: factory,
        securityClaim: claimFromFile(file),
        scope: scopeOf(m.scope.map((n) => domain.get(n)!)),
        readOnly: scopeOf(m.readOnly.map((n) => domain.get(n)!)),
        maxRunsPerTask: templates.length,
        storage,
        domain,
        attackerLabel: 'template',
        targetLabel: 'redscope-assistant',
        claimLabel: file.name,
      }),
  )
  // One signal shared by every threat model (as the page's cancel button): Node warns past 10 listeners.
  const cancel = new AbortController()
  setMaxListeners(0, cancel.signal)
  let runs = 0
  let tasks = 0
  const mem = peakSampler()
  // CPU time of every thread of the process (the thread pool's writes too): a loaded machine inflates wall-clock only.
  const cpuBefore = process.cpuUsage()
  const { ms, value: results } = await time(() =>
    runAll(controllers, {
      concurrency: PARALLEL,
      signal: cancel.signal,
      reporter: {
        runComplete: () => {
          runs += 1
        },
        taskComplete: () => {
          tasks += 1
        },
      },
    }),
  )
  const cpu = process.cpuUsage(cpuBefore)
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, results, runs, tasks, peak: mem.stop() }
}

/** Outcomes of `n` made-up threat models over a forest (seeded): ~15% of the tags written, ~5% more read, 0-4 of 4 tasks broken. */
function syntheticOutcomes(forest: Forest, n: number): ModelOutcome[] {
  const names = forest.tags.map((t) => t.name)
  let seed = 12345
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff
  return Array.from({ length: n }, (_, i) => {
    const scope = names.filter(() => rnd() < 0.15)
    return {
      key: String(i),
      scope,
      readOnly: names.filter((x) => !scope.includes(x) && rnd() < 0.05),
      nSuccess: Math.floor(rnd() * 5),
      nCompleted: 4,
    }
  })
}

/** The painting alone (with against without, per tag, with intervals) on sweeps far larger than the engine part runs. */
async function paintingBench(): Promise<void> {
  for (const [name, forest, n] of [
    ['assistant', ASSISTANT_FOREST, 10_000],
    ['AgentDojo', AGENTDOJO_FOREST, 10_000],
    ['AgentDojo', AGENTDOJO_FOREST, 50_000],
  ] as const) {
    const outcomes = syntheticOutcomes(forest, n)
    row(
      `painting ${n.toLocaleString('en-US')} outcomes, ${name} forest (${forest.tags.length} tags): median ms`,
      await median(15, () => paintForest(forest, outcomes)),
    )
  }
}

export default async function sweepBench(): Promise<void> {
  await paintingBench()
  const models = threatModels(REFERENCE_TARGETS.assistant.factory()().securityDomain)
  row('threat models (distinct identities)', models.length)
  const bare = await sweep(models, null)
  row('tasks / runs', bare.tasks, bare.runs)
  row(
    'successful tasks',
    bare.results.reduce((a: number, r: ThreatModelResult) => a + r.taskResults.filter((t) => t.success).length, 0),
  )
  row(`engine only, ${PARALLEL} threat models at once: wall (s)`, bare.ms / 1000)
  row('  throughput (runs/s, tasks/s)', (bare.runs / bare.ms) * 1000, (bare.tasks / bare.ms) * 1000)
  row('  peak heap / peak RSS (MB)', bare.peak.heapMb, bare.peak.rssMb)
  const dir = mkdtempSync(join(tmpdir(), 'redscope-sweep-bench-'))
  try {
    const storage = new NodeFsStorage(dir)
    const disk = await sweep(models, storage)
    const experiments = await listExperiments(storage)
    row('with results on disk: wall (s)', disk.ms / 1000)
    row('  throughput (runs/s, tasks/s)', (disk.runs / disk.ms) * 1000, (disk.tasks / disk.ms) * 1000)
    row('  peak heap / peak RSS (MB)', disk.peak.heapMb, disk.peak.rssMb)
    row(
      '  experiments in experiments.json, all complete',
      experiments.length,
      experiments.every((e) => e.status === 'complete') ? 'yes' : 'NO',
    )
    const outcomes = disk.results.map((r, i) => ({
      key: r.resultsDir ?? String(i),
      scope: models[i].scope,
      readOnly: models[i].readOnly,
      nSuccess: r.taskResults.filter((t) => t.success).length,
      nCompleted: r.taskResults.filter((t) => ['success', 'done', 'max_runs', 'budget_exhausted'].includes(t.stopReason)).length,
    }))
    const analysis = await time(() => ({
      paint: paintForest(ASSISTANT_FOREST, outcomes),
      pairs: widerDidWorse(ASSISTANT_FOREST, outcomes),
    }))
    row('sweep analysis: painting + wider-did-worse (ms)', analysis.ms)
    row('  wider-did-worse pairs found', analysis.value.pairs.length)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
