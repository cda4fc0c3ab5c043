/**
 * Small results trees written file by file (a manifest per experiment, as
 * superred writes them), for the comparison's tests and its benchmark: each
 * threat model's tasks breached or held as the caller says.
 */
import { pyDumps } from '../results/pyjson'
import { joinPath, type Storage } from '../results/storage'

export interface TreeModel {
  readonly scope: readonly string[]
  readonly readOnly?: readonly string[]
  readonly name?: string
  /** Per task: true breached, false held, null errored (not measured). */
  readonly outcomes: ReadonlyArray<boolean | null>
}

export interface TreeSpec {
  readonly target?: string
  readonly claim?: string
  readonly attacker?: string
  readonly goals: readonly string[]
  readonly models: readonly TreeModel[]
}

export function manifestText(spec: TreeSpec, m: TreeModel, hash: string): string {
  const tasks = m.outcomes.map((o, i) => ({
    index: i + 1,
    goal: spec.goals[i],
    goal_hash: `g${i + 1}`,
    dir: `task_${i + 1}`,
    status: o === null ? 'error' : o ? 'success' : 'failed',
    success: o === true,
    best_score: o ? 1 : 0,
    stop_reason: o === null ? 'error' : o ? 'success' : 'max_runs',
    n_runs: o === null ? 0 : 2,
    cost_usd: 0,
    has_error: o === null,
    started_at: null,
    ended_at: null,
  }))
  const completed = m.outcomes.filter((o) => o !== null).length
  const success = m.outcomes.filter((o) => o === true).length
  return pyDumps(
    {
      schema_version: 5,
      status: 'complete',
      experiment: {
        slug: 'x',
        hash,
        attacker: spec.attacker ?? 'template-00000000',
        target: spec.target ?? 'target',
        claim: spec.claim ?? 'claim',
        model: null,
        scope: m.scope,
        read_only: m.readOnly ?? [],
        scope_label: null,
        task_cost_cap_usd: null,
        task_time_cap_s: null,
        max_runs_per_task: 2,
        include_feedback: true,
        concurrency: 1,
        n_tasks: m.outcomes.length,
      },
      timing: { started_at: null, completed_at: null },
      summary: {
        asr: completed ? success / completed : null,
        n_tasks: m.outcomes.length,
        n_success: success,
        n_completed: completed,
        n_failed: completed - success,
        n_error: m.outcomes.length - completed,
        n_budget_exhausted: 0,
        max_primary_score: null,
        mean_primary_score: null,
        total_llm_usage: { calls: 0, cost: 0 },
      },
      tasks,
    },
    { indent: 2 },
  )
}

/**
 * Writes one experiment folder per model (named exp-N) under `root`, and with `index` the root's experiments.json (as
 * a finished sweep has); returns the folders.
 */
export async function writeTree(storage: Storage, spec: TreeSpec, root = '', index = false): Promise<string[]> {
  const dirs: string[] = []
  const rows: unknown[] = []
  for (const [i, m] of spec.models.entries()) {
    const dir = `exp-${String(i).padStart(5, '0')}`
    const text = manifestText(spec, m, String(i).padStart(8, '0'))
    await storage.writeTextAtomic(joinPath(root, dir, 'manifest.json'), text)
    if (index) {
      const man = JSON.parse(text) as { status: string; experiment: { slug: string; hash: string }; summary: Record<string, unknown> }
      const s = man.summary
      rows.push({
        dir,
        slug: man.experiment.slug,
        hash: man.experiment.hash,
        status: man.status,
        experiment: man.experiment,
        summary: { asr: s.asr, n_success: s.n_success, n_completed: s.n_completed, total_llm_usage: s.total_llm_usage },
        completed_at: null,
      })
    }
    if (m.name !== undefined)
      await storage.writeTextAtomic(joinPath(root, dir, 'threat_model.json'), JSON.stringify({ schema_version: 5, name: m.name }))
    dirs.push(dir)
  }
  if (index)
    await storage.writeTextAtomic(joinPath(root, 'experiments.json'), pyDumps({ schema_version: 5, experiments: rows }, { indent: 2 }))
  return dirs
}
