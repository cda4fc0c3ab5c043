/**
 * `redscope results DIR`: a JSON summary of any results tree, superred's own
 * or redscope's, read with the same reader the browser uses. DIR may be a
 * results root or one experiment folder.
 */
import { stat } from 'node:fs/promises'
import { NodeFsStorage } from '../../adapters/storage/nodeFsStorage'
import {
  costWords,
  listExperiments,
  readExperiment,
  readOptional,
  readTasks,
  ResultsFormatError,
  runEndWords,
  sumUnpriced,
  taskHeld,
  type ExperimentRecord,
  type Storage,
  type TaskRecord,
  type UnpricedJson,
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
    n_success: successes,
    n: trials,
    n_counts: unit === 'task' ? 'completed tasks' : 'runs',
    rate: w.rate,
    wilson_95: w.interval === null ? null : [w.interval.low, w.interval.high],
    held: w.held,
    words: w.text,
  }
}

/**
 * A cost as recorded: superred's dollars (the priced calls'), the calls that had no price (unpriced.json,
 * run_records.json) and the words every view shows ("$0.0123", "unpriced (…)", "$0.0123 + unpriced (…)").
 */
function costJson(usd: number, calls: number, unpriced: UnpricedJson | null | undefined) {
  return { usd, calls, unpriced: unpriced ?? null, words: costWords(usd, unpriced, { calls }) }
}

async function summarise(storage: Storage, dir: string) {
  const { manifest, result, domain, taskConfigs, echoes, threatModelName, unpriced } = await readExperiment(storage, dir)
  const tasks = await readTasks(storage, dir, echoes)
  const records = new Map(tasks.map((t) => [t.task.index, t.runRecords]))
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
      slug: e.slug,
      hash: e.hash,
      attacker: e.attacker,
      target: e.target,
      claim: e.claim,
      model: e.model,
      scope: e.scope,
      read_only: e.read_only,
      scope_label: e.scope_label,
      max_runs_per_task: e.max_runs_per_task,
      task_cost_cap_usd: e.task_cost_cap_usd,
      task_time_cap_s: e.task_time_cap_s,
      include_feedback: e.include_feedback,
    },
    summary,
    // The cost with its unpriced calls: superred's total_llm_usage.cost counts a call with no price as $0.
    cost: costJson(summary.total_llm_usage.cost, summary.total_llm_usage.calls, sumUnpriced(unpriced.values())),
    // The ASR with its n (completed tasks) and 95% interval: redscope's, beside superred's summary.
    verdict: verdictJson(summary.n_success, summary.n_completed, 'task', e.attacker),
    // Runs whose success was the attacker's own echo (echoes.json, when redscope wrote the tree and there were any).
    ...(echoes && echoes.tasks.length > 0
      ? { echoes: { counted: echoes.count_echoes, runs: echoes.tasks.reduce((n, t) => n + t.runs.length, 0), tasks: echoes.tasks.length } }
      : {}),
    // With the configuration each task set (task_configs.json, when redscope wrote the tree); a task that held says
    // in how many runs, with the upper bound of its per-run success rate (one that broke stopped at its first success).
    tasks: taskRows(manifest.tasks, tasks).map(({ usage, ...t }) => {
      const held = taskHeld(t.status, t.n_runs) ? { verdict: verdictJson(0, t.n_runs, 'run', e.attacker) } : {}
      const runs = records.get(t.index)?.runs ?? []
      return {
        ...t,
        ...held,
        // A task without a task.json (skipped, or not written yet) has no usage to show.
        ...(usage === null ? {} : { cost: costJson(usage.cost, usage.calls, unpriced.get(t.index)) }),
        // Why each run ended (run_records.json: turn limit, the attacker's decline, the target, the time cap), when recorded.
        ...(runs.length > 0
          ? {
              run_ends: runs.map((r) => ({
                run_number: r.run_number,
                ended_by: r.ended_by,
                turns: r.turns,
                words: runEndWords(r.ended_by, r.turns, true),
              })),
            }
          : {}),
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
      ? {
          index: task.index,
          goal: task.goal,
          status: task.status,
          stop_reason: task.stop_reason,
          n_runs: task.n_runs,
          best_score: task.best_score.value,
          success: task.success,
          dir: m.dir,
          usage: task.llm_usage as { cost: number; calls: number } | null,
        }
      : {
          index: m.index,
          goal: m.goal,
          status: m.status,
          stop_reason: m.stop_reason,
          n_runs: m.n_runs,
          best_score: m.best_score,
          success: m.success,
          dir: m.dir,
          usage: null,
        }
  })
  for (const task of byIndex.values()) {
    rows.push({
      index: task.index,
      goal: task.goal,
      status: task.status,
      stop_reason: task.stop_reason,
      n_runs: task.n_runs,
      best_score: task.best_score.value,
      success: task.success,
      dir: null,
      usage: task.llm_usage,
    })
  }
  return rows.sort((a, b) => a.index - b.index)
}

/** What a tree's sweep.json says, and how much of it the tree holds finished. */
function sweepSummary(r: SweepRecord, finished: ReadonlySet<string>, pooled: { success: number; completed: number }) {
  return {
    id: r.id,
    title: r.title,
    target: r.target,
    claim: r.claim,
    attacker: r.attacker,
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
    const pooled = {
      success: listed.reduce((a, e) => a + e.summary.n_success, 0),
      completed: listed.reduce((a, e) => a + e.summary.n_completed, 0),
    }
    const sweep = record === null ? {} : { sweep: sweepSummary(record, finished, pooled) }
    // Over every experiment: a tree mixing priced and unpriced calls says both, never one sum that reads as whole.
    const cost = costJson(
      experiments.reduce((a, e) => a + e.cost.usd, 0),
      experiments.reduce((a, e) => a + e.cost.calls, 0),
      sumUnpriced(experiments.map((e) => e.cost.unpriced)),
    )
    io.stdout(`${JSON.stringify({ root, ...sweep, cost, experiments }, null, 2)}\n`)
    return EXIT_OK
  } catch (e) {
    if (e instanceof ResultsFormatError) throw new UsageError(`${root}: not a readable results tree: ${e.message}`)
    throw e
  }
}
