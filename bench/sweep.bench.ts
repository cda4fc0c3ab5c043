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
import { paintForest, widerDidWorse } from '../src/core/sweep'
import { combinationAt, countCombinations, scopeOf, subtreeCounts, type SecurityDomain } from '../src/core/tags'
import { ASSISTANT_FOREST, REFERENCE_TARGETS } from '../src/reference-targets'
import { row, time } from './util'

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
  return { stop: () => { clearInterval(timer); sample(); return { heapMb: heap / 2 ** 20, rssMb: rss / 2 ** 20 } } }
}

interface Model { readonly scope: string[]; readonly readOnly: string[] }

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
  const controllers = models.map((m) => new Controller({
    optimizerFactory: templateOptimizerFactory({ templates }), targetFactory: factory, securityClaim: claimFromFile(file),
    scope: scopeOf(m.scope.map((n) => domain.get(n)!)), readOnly: scopeOf(m.readOnly.map((n) => domain.get(n)!)),
    maxRunsPerTask: templates.length, storage, domain, attackerLabel: 'template', targetLabel: 'redscope-assistant', claimLabel: file.name,
  }))
  // One signal shared by every threat model (as the page's cancel button): Node warns past 10 listeners.
  const cancel = new AbortController()
  setMaxListeners(0, cancel.signal)
  let runs = 0
  let tasks = 0
  const mem = peakSampler()
  // CPU time of every thread of the process (the thread pool's writes too): a loaded machine inflates wall-clock only.
  const cpuBefore = process.cpuUsage()
  const { ms, value: results } = await time(() => runAll(controllers, {
    concurrency: PARALLEL, signal: cancel.signal,
    reporter: { runComplete: () => { runs += 1 }, taskComplete: () => { tasks += 1 } },
  }))
  const cpu = process.cpuUsage(cpuBefore)
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, results, runs, tasks, peak: mem.stop() }
}

export default async function sweepBench(): Promise<void> {
  const models = threatModels(REFERENCE_TARGETS.assistant.factory()().securityDomain)
  row('threat models (distinct identities)', models.length)
  const bare = await sweep(models, null)
  row('tasks / runs', bare.tasks, bare.runs)
  row('successful tasks', bare.results.reduce((a: number, r: ThreatModelResult) => a + r.taskResults.filter((t) => t.success).length, 0))
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
    row('  experiments in experiments.json, all complete', experiments.length, experiments.every((e) => e.status === 'complete') ? 'yes' : 'NO')
    const outcomes = disk.results.map((r, i) => ({
      key: r.resultsDir ?? String(i), scope: models[i].scope, readOnly: models[i].readOnly,
      nSuccess: r.taskResults.filter((t) => t.success).length,
      nCompleted: r.taskResults.filter((t) => ['success', 'done', 'max_runs', 'budget_exhausted'].includes(t.stopReason)).length,
    }))
    const analysis = await time(() => ({ paint: paintForest(ASSISTANT_FOREST, outcomes), pairs: widerDidWorse(ASSISTANT_FOREST, outcomes) }))
    row('sweep analysis: painting + wider-did-worse (ms)', analysis.ms)
    row('  wider-did-worse pairs found', analysis.value.pairs.length)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
