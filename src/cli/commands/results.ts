/**
 * `redscope results DIR`: a JSON summary of any results tree, superred's own
 * or redscope's, read with the same reader the browser uses. DIR may be a
 * results root or one experiment folder.
 */
import { stat } from 'node:fs/promises'
import { NodeFsStorage } from '../../adapters/storage/nodeFsStorage'
import {
  listExperiments, readExperiment, readOptional, readTasks, ResultsFormatError, taskHeld, type ExperimentRecord, type Storage, type TaskRecord,
} from '../../core/results'
import { rateWords } from '../../core/stats'
import { SWEEP_FILE, SweepRecordSchema, type SweepRecord } from '../../core/sweep'
import type { CommandArgs } from '../command'
import type { resultsOptions } from '../definitions/results'
import { EXIT_OK, UsageError, type CliIo } from '../io'

/**
 * A success rate as the JSON says it beside superred's own summary: k of n, the 95% Wilson interval, whether
 * nothing broke, and the words every view of redscope uses (src/core/stats).
 */
function verdictJson(successes: number, trials: number, unit: 'task' | 'run', attacker: string) {
  const w = rateWords(successes, trials, { unit, attacker })
  return {
    n_success: successes, n: trials, n_counts: unit === 'task' ? 'completed tasks' : 'runs',
    rate: w.rate, wilson_95: w.interval === null ? null : [w.interval.low, w.interval.high], held: w.held, words: w.text,
  }
}

async function summarise(storage: Storage, dir: string) {
  const { manifest, result, domain, taskConfigs, echoes, threatModelName } = await readExperiment(storage, dir)
  const tasks = await readTasks(storage, dir, echoes)
  const echoed = new Map((echoes?.tasks ?? []).map((t) => [t.index, t.runs]))
  const e = manifest.experiment
  const summary = result?.summary ?? manifest.summary
  return {
    dir: dir || '.',
    status: manifest.status,
    complete: result !== null,
    has_domain: domain !== null,
    // The name the threat model was saved under in the designer (threat_model.json); null when none was.
    threat_model_name: threatModelName,
    experiment: {
      slug: e.slug, hash: e.hash, attacker: e.attacker, target: e.target, claim: e.claim, model: e.model,
      scope: e.scope, read_only: e.read_only, scope_label: e.scope_label, max_runs_per_task: e.max_runs_per_task,
      task_cost_cap_usd: e.task_cost_cap_usd, task_time_cap_s: e.task_time_cap_s, include_feedback: e.include_feedback,
    },
    summary,
    // The ASR with its n (completed tasks) and 95% interval: redscope's, beside superred's summary.
    verdict: verdictJson(summary.n_success, summary.n_completed, 'task', e.attacker),
    // Runs whose success was the attacker's own echo (echoes.json, when redscope wrote the tree and there were any).
    ...(echoes && echoes.tasks.length > 0
      ? { echoes: { counted: echoes.count_echoes, runs: echoes.tasks.reduce((n, t) => n + t.runs.length, 0), tasks: echoes.tasks.length } }
      : {}),
    // With the configuration each task set (task_configs.json, when redscope wrote the tree); a task that held says
    // in how many runs, with the upper bound of its per-run success rate (one that broke stopped at its first success).
    tasks: taskRows(manifest.tasks, tasks).map((t) => {
      const held = taskHeld(t.status, t.n_runs) ? { verdict: verdictJson(0, t.n_runs, 'run', e.attacker) } : {}
      return {
        ...t, ...held,
        ...(taskConfigs.has(t.index) ? { config: taskConfigs.get(t.index) } : {}),
        ...(echoed.has(t.index) ? { echoed_runs: echoed.get(t.index) } : {}),
      }
    }),
  }
}

/**
 * Every task the manifest lists, skipped ones included (they have no folder,
 * so no task.json), with task.json's figures where it exists; a task folder
 * the manifest does not list yet (a writer between the two files) is kept too.
 */
function taskRows(listed: ExperimentRecord['manifest']['tasks'], written: TaskRecord[]) {
  const byIndex = new Map(written.map((t) => [t.task.index, t.task]))
  const rows = listed.map((m) => {
    const task = byIndex.get(m.index)
    byIndex.delete(m.index)
    return task
      ? { index: task.index, goal: task.goal, status: task.status, stop_reason: task.stop_reason, n_runs: task.n_runs,
          best_score: task.best_score.value, success: task.success, dir: m.dir }
      : { index: m.index, goal: m.goal, status: m.status, stop_reason: m.stop_reason, n_runs: m.n_runs,
          best_score: m.best_score, success: m.success, dir: m.dir }
  })
  for (const task of byIndex.values()) {
    rows.push({ index: task.index, goal: task.goal, status: task.status, stop_reason: task.stop_reason, n_runs: task.n_runs,
      best_score: task.best_score.value, success: task.success, dir: null })
  }
  return rows.sort((a, b) => a.index - b.index)
}

/** What a tree's sweep.json says, and how much of it the tree holds finished. */
function sweepSummary(r: SweepRecord, finished: ReadonlySet<string>, pooled: { success: number; completed: number }) {
  return {
    id: r.id, title: r.title, target: r.target, claim: r.claim, attacker: r.attacker,
    threat_models: r.plan ? Number(r.plan.total) : r.models.length,
    listed: r.models.length,
    finished: r.models.filter((m) => finished.has(m.dir)).length,
    shards: r.plan ? { count: r.plan.shards.count, present: r.plan.shards.indices } : null,
    // The tasks of every experiment of the sweep this tree holds, pooled.
    verdict: verdictJson(pooled.success, pooled.completed, 'task', r.attacker),
  }
}

export async function resultsCommand(args: CommandArgs<typeof resultsOptions>, io: CliIo): Promise<number> {
  const root = args.positionals[0]
  try {
    if (!(await stat(root)).isDirectory()) throw new UsageError(`${root}: not a folder`)
  } catch (e) {
    if (e instanceof UsageError) throw e
    throw new UsageError(`${root}: no such folder`)
  }
  const storage = new NodeFsStorage(root)
  try {
    // One experiment folder given directly, or a root holding several.
    const dirs = (await storage.exists('manifest.json')) ? [''] : (await listExperiments(storage)).map((r) => r.dir)
    if (dirs.length === 0) {
      throw new UsageError(`${root}: not a results tree (no experiments.json and no experiment folder with a manifest.json)`)
    }
    const experiments = []
    for (const dir of dirs) experiments.push(await summarise(storage, dir))
    // A sweep's tree (run by redscope sweep, merged, or a sweep's zip unpacked) says so first.
    const record = await readOptional(storage, SWEEP_FILE, SweepRecordSchema)
    const finished = new Set(experiments.filter((e) => e.complete).map((e) => e.dir))
    const inSweep = new Set(record?.models.map((m) => m.dir) ?? [])
    const listed = experiments.filter((e) => inSweep.has(e.dir))
    const pooled = { success: listed.reduce((a, e) => a + e.summary.n_success, 0), completed: listed.reduce((a, e) => a + e.summary.n_completed, 0) }
    const sweep = record === null ? {} : { sweep: sweepSummary(record, finished, pooled) }
    io.stdout(`${JSON.stringify({ root, ...sweep, experiments }, null, 2)}\n`)
    return EXIT_OK
  } catch (e) {
    if (e instanceof ResultsFormatError) throw new UsageError(`${root}: not a readable results tree: ${e.message}`)
    throw e
  }
}
