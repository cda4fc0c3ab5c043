/**
 * The experiment block (semantics §6) as a JSON shape: manifests and result.json print it once per session
 * (experimentText), and each experiments.json row holds it. Every other file is printed straight from the engine's
 * objects (trajectoryText, taskText, experimentText). Numbers Python holds as floats are wrapped in PyFloat so the
 * files print `0.0` and `0.5` as superred's do.
 */
import { compareNames } from '../tags'
import { pyFloat } from './pyjson'
import type { ExperimentMeta } from './identityHash'

export function experimentJson(meta: ExperimentMeta, slug: string, hash: string) {
  return {
    slug,
    hash,
    attacker: meta.attacker,
    target: meta.target,
    claim: meta.claim,
    model: meta.model,
    scope: [...meta.scope].sort(compareNames),
    read_only: [...meta.readOnly].sort(compareNames),
    scope_label: meta.scopeLabel,
    task_cost_cap_usd: pyFloat(meta.taskCostCapUsd),
    task_time_cap_s: pyFloat(meta.taskTimeCapS),
    max_runs_per_task: meta.maxRunsPerTask,
    include_feedback: meta.includeFeedback,
    concurrency: meta.concurrency,
    n_tasks: meta.nTasks,
  }
}
