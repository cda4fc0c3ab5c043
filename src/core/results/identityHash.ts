/**
 * An experiment's identity: what makes two threat models the same
 * measurement. Its hash names the results folder, so a rerun of the same
 * parameters resumes and distinct ones never collide.
 */
import { compareNames } from '../tags'
import type { AttackerConfig } from './attackerConfig'
import { pyDumps, pyFloat } from './pyjson'
import { sha256Hex } from './sha256'
import { experimentSlug } from './slug'

export interface ExperimentMeta {
  readonly attacker: string
  readonly target: string
  readonly claim: string
  readonly model: string | null
  readonly scope: readonly string[]
  readonly readOnly: readonly string[]
  readonly scopeLabel: string | null
  readonly taskCostCapUsd: number | null
  /** Recorded but not hashed: a property of the host, not of the measurement. */
  readonly taskTimeCapS: number | null
  readonly maxRunsPerTask: number
  readonly includeFeedback: boolean
  readonly concurrency: number
  readonly nTasks: number | null
  /**
   * Recorded (attacker_config.json) but not hashed: superred's hash stays as it is; the label, which is hashed,
   * is derived from this configuration unless the user names it, and a folder holding another one is not resumed.
   */
  readonly attackerConfig?: AttackerConfig | null
}

const sorted = (names: readonly string[]) => [...names].sort(compareNames)

/**
 * The first 8 hex digits of sha256 over the compact, key-sorted JSON of the
 * identity, written exactly as Python's json.dumps (ASCII-escaped; the cost
 * cap as a float, so 1 hashes as "1.0").
 */
export function identityHash(meta: ExperimentMeta): string {
  let hash = hashes.get(meta)
  if (hash === undefined) {
    hash = hashOf(meta)
    hashes.set(meta, hash)
  }
  return hash
}

/**
 * Hashes (and slugs, below) by meta object: a run names its threat model (the Controller's info) and opens its results
 * session from the same meta, and in a sweep of 1,000 threat models working each out a second time cost ~50 ms.
 */
const hashes = new WeakMap<ExperimentMeta, string>()

function hashOf(meta: ExperimentMeta): string {
  const identity = {
    attacker: meta.attacker,
    target: meta.target,
    claim: meta.claim,
    model: meta.model,
    scope: sorted(meta.scope),
    read_only: sorted(meta.readOnly),
    scope_label: meta.scopeLabel,
    task_cost_cap_usd: pyFloat(meta.taskCostCapUsd),
    max_runs_per_task: meta.maxRunsPerTask,
    include_feedback: meta.includeFeedback,
  }
  return sha256Hex(pyDumps(identity, { sortKeys: true })).slice(0, 8)
}

export function slugOf(meta: ExperimentMeta): string {
  let slug = slugs.get(meta)
  if (slug === undefined) {
    slug = experimentSlug(meta.attacker, meta.target, meta.claim, meta.model)
    slugs.set(meta, slug)
  }
  return slug
}

const slugs = new WeakMap<ExperimentMeta, string>()

/** `{slug}-{hash8}`: the experiment's folder and its key in a shared dashboard. */
export function experimentDirName(meta: ExperimentMeta): string {
  return dirNameOf(slugOf(meta), identityHash(meta))
}

/** The folder name from a slug and hash already computed (a session keeps both). */
export function dirNameOf(slug: string, hash: string): string {
  return `${slug}-${hash}`
}
