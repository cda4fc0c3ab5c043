/**
 * Engine objects → the reference's JSON shapes (semantics §6) for the files
 * that are still printed through pyDumps: attacker.json and the experiment
 * block of manifests, result.json and the index (task.json, iterations.json
 * and the trajectories are printed directly: taskText, trajectoryText). Tags
 * are written by name only. Numbers Python holds as floats are wrapped in
 * PyFloat so the files print `0.0` and `0.5` as superred's do.
 */
import { compareNames, scopeNames, type Scope, type SecurityDomainTag } from '../tags'
import type { OfferedSurfaces } from '../engine/outcomes'
import type { Controllable, Observable } from '../engine/types'
import { SCHEMA_VERSION } from './format'
import { pyFloat } from './pyjson'
import type { ExperimentMeta } from './identityHash'

const tagName = (tag: SecurityDomainTag | null) => tag?.name ?? null

export function controllableJson(c: Controllable) {
  return { name: c.name, security_domain: tagName(c.securityDomain), description: c.description, value_type: c.valueType }
}

export function observableJson(o: Observable) {
  return { name: o.name, security_domain: tagName(o.securityDomain), description: o.description, observable_type: o.observableType }
}

export function attackerFileJson(scope: Scope, readOnly: Scope, offered: OfferedSurfaces) {
  return {
    schema_version: SCHEMA_VERSION,
    scope: scopeNames(scope),
    read_only: scopeNames(readOnly),
    controllables: offered.controllables.map(controllableJson),
    observables: offered.observables.map((o) => ({ observable: observableJson(o.observable), content: o.content })),
  }
}

export function experimentJson(meta: ExperimentMeta, slug: string, hash: string) {
  return {
    slug, hash, attacker: meta.attacker, target: meta.target, claim: meta.claim, model: meta.model,
    scope: [...meta.scope].sort(compareNames), read_only: [...meta.readOnly].sort(compareNames), scope_label: meta.scopeLabel,
    task_cost_cap_usd: pyFloat(meta.taskCostCapUsd), task_time_cap_s: pyFloat(meta.taskTimeCapS),
    max_runs_per_task: meta.maxRunsPerTask, include_feedback: meta.includeFeedback, concurrency: meta.concurrency, n_tasks: meta.nTasks,
  }
}
