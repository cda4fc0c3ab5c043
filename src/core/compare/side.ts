/**
 * One side of a comparison: what a results tree (superred's or redscope's, a
 * merged sweep, a frontier search's folder) says of each threat model and
 * task, read with the results reader the other commands use. A folder with
 * only frontier.json gives its evaluations as the threat models.
 */
import { FRONTIER_FILE, FrontierFileSchema, type FrontierFile } from '../frontier'
import {
  joinPath,
  listExperiments,
  ManifestFile,
  readJsonFile,
  readOptional,
  readTaskConfigs,
  readThreatModelName,
  configText,
  ResultsFormatError,
  taskHeld,
  type Storage,
} from '../results'
import { threatModelKey } from '../sweep'

/** What one task came to in one threat model's experiment. */
export type TaskOutcomeKind = 'breached' | 'held' | 'unmeasured'

export interface TaskOutcome {
  /** How the task is matched across results: its goal, with its configuration (or its place) when goals repeat. */
  readonly key: string
  readonly index: number
  readonly goal: string
  readonly outcome: TaskOutcomeKind
  /** Judged runs behind the outcome (a breached task stopped at its first success). */
  readonly runs: number
  readonly status: string
  /** Its folder relative to the experiment's ("tasks/00001__goal"), where one was written: the viewer links to it. */
  readonly dir: string | null
}

export interface ThreatModelResult {
  /** How the threat model is matched across results: target, claim, attacker label (its configuration's hash) and grants. */
  readonly key: string
  readonly target: string
  readonly claim: string
  /** The experiment's attacker label: derived from the attacker's whole configuration unless the user named it. */
  readonly attacker: string
  readonly scope: readonly string[]
  readonly readOnly: readonly string[]
  /** The name it was saved under in the designer, when one was. */
  readonly name: string | null
  /** Its experiment folder, relative to the side's root ('' when the side is that folder). */
  readonly dir: string
  readonly nSuccess: number
  readonly nCompleted: number
  readonly tasks: readonly TaskOutcome[]
}

/** One minimal winning threat model of a frontier. */
export interface FrontierModel {
  readonly key: string
  readonly scope: readonly string[]
  readonly readOnly: readonly string[]
  readonly words: string
}

export interface SideFrontier {
  readonly target: string
  readonly claim: string
  readonly attacker: string
  readonly complete: boolean
  readonly claimWins: readonly FrontierModel[]
  readonly tasks: ReadonlyArray<{ readonly key: string; readonly goal: string; readonly wins: readonly FrontierModel[] }>
}

export interface Side {
  /** The path as the user gave it: every message about this side names it. */
  readonly path: string
  readonly models: readonly ThreatModelResult[]
  readonly frontier: SideFrontier | null
}

/** A side that cannot be compared: its path and the problem, one line. */
export class CompareInputError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'CompareInputError'
  }
}

export function modelKey(target: string, claim: string, attacker: string, scope: readonly string[], readOnly: readonly string[]): string {
  return JSON.stringify([target, claim, attacker, threatModelKey(scope, readOnly)])
}

/**
 * Task keys for an experiment's tasks: the goal alone when it is the only task with that goal; else the goal with its
 * configuration (a claim that asks one goal of several defences), else with its place among those tasks.
 */
export function taskKeys(
  tasks: ReadonlyArray<{ index: number; goal: string }>,
  configs: ReadonlyMap<number, Readonly<Record<string, string>>>,
): Map<number, string> {
  const byGoal = new Map<string, number[]>()
  for (const t of [...tasks].sort((a, b) => a.index - b.index)) byGoal.set(t.goal, [...(byGoal.get(t.goal) ?? []), t.index])
  const keys = new Map<number, string>()
  for (const [goal, indices] of byGoal) {
    if (indices.length === 1) {
      keys.set(indices[0], goal)
      continue
    }
    const texts = indices.map((i) => configText(configs.get(i)))
    const distinct = texts.every((t) => t !== '') && new Set(texts).size === texts.length
    indices.forEach((i, k) => keys.set(i, distinct ? `${goal} [${texts[k]}]` : `${goal} [#${k + 1}]`))
  }
  return keys
}

const outcomeOf = (status: string, success: boolean, runs: number): TaskOutcomeKind =>
  success ? 'breached' : taskHeld(status, runs) ? 'held' : 'unmeasured'

/** Every experiment folder of the tree at `storage`'s root, a few at a time. */
async function readModels(storage: Storage, dirs: readonly string[]): Promise<ThreatModelResult[]> {
  const out: ThreatModelResult[] = new Array(dirs.length)
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(16, dirs.length) }, async () => {
      while (next < dirs.length) {
        const i = next++
        out[i] = await readModel(storage, dirs[i])
      }
    }),
  )
  return out
}

async function readModel(storage: Storage, dir: string): Promise<ThreatModelResult> {
  const manifest = await readJsonFile(storage, joinPath(dir, 'manifest.json'), ManifestFile)
  const e = manifest.experiment
  const goals = manifest.tasks.map((t) => t.goal)
  // Configurations only matter where goals repeat: most trees never read task_configs.json.
  const configs = new Set(goals).size < goals.length ? await readTaskConfigs(storage, dir) : new Map<number, Record<string, string>>()
  const keys = taskKeys(manifest.tasks, configs)
  const name = await readThreatModelName(storage, dir)
  return {
    key: modelKey(e.target, e.claim, e.attacker, e.scope, e.read_only),
    target: e.target,
    claim: e.claim,
    attacker: e.attacker,
    scope: e.scope,
    readOnly: e.read_only,
    name,
    dir,
    nSuccess: manifest.summary.n_success,
    nCompleted: manifest.summary.n_completed,
    tasks: manifest.tasks.map((t) => ({
      key: keys.get(t.index)!,
      index: t.index,
      goal: t.goal,
      outcome: outcomeOf(t.status, t.success, t.n_runs),
      runs: t.n_runs,
      status: t.status,
      dir: t.dir,
    })),
  }
}

function frontierModels(f: FrontierFile, list: FrontierFile['claim']['minimal_wins']): FrontierModel[] {
  return list.map((m) => ({
    key: modelKey(f.search.target, f.search.claim, f.search.attacker, m.scope, m.read_only),
    scope: m.scope,
    readOnly: m.read_only,
    words: m.words,
  }))
}

/** `treeKeys`: the task keys the folder's experiments gave (with their configurations), else the goals' own. */
function sideFrontier(f: FrontierFile, treeKeys: ReadonlyMap<number, string>): SideFrontier {
  const own = taskKeys(f.tasks, new Map())
  const keys = new Map(f.tasks.map((t) => [t.index, treeKeys.get(t.index) ?? own.get(t.index)!]))
  return {
    target: f.search.target,
    claim: f.search.claim,
    attacker: f.search.attacker,
    complete: f.complete,
    claimWins: frontierModels(f, f.claim.minimal_wins),
    tasks: f.tasks.map((t) => ({ key: keys.get(t.index)!, goal: t.goal, wins: frontierModels(f, t.minimal_wins) })),
  }
}

/** A frontier search's evaluations as threat models, for a folder that holds frontier.json and no experiments. */
function evaluatedModels(f: FrontierFile): ThreatModelResult[] {
  const keys = taskKeys(f.tasks, new Map())
  const tasks = [...f.tasks].sort((a, b) => a.index - b.index)
  return f.evaluations.map((ev) => {
    const width = ev.outcomes[0]?.length ?? 0
    const breached = Array.from({ length: width }, (_, i) => ev.outcomes.some((run) => run[i] === true))
    return {
      key: modelKey(f.search.target, f.search.claim, f.search.attacker, ev.scope, ev.read_only),
      target: f.search.target,
      claim: f.search.claim,
      attacker: f.search.attacker,
      scope: ev.scope,
      readOnly: ev.read_only,
      name: null,
      dir: ev.runs[0] ?? '',
      nSuccess: breached.filter(Boolean).length,
      nCompleted: width,
      tasks: breached.map((b, i) => {
        const t = tasks[i]
        const index = t?.index ?? i + 1
        return {
          key: t ? keys.get(t.index)! : `task ${index}`,
          index,
          goal: t?.goal ?? `task ${index}`,
          outcome: b ? 'breached' : 'held',
          runs: ev.outcomes.length,
          status: b ? 'success' : 'failed',
          dir: null,
        }
      }),
    }
  })
}

/**
 * One side read whole before anything is compared or written. Every problem is a CompareInputError naming `path`:
 * a folder that is not a results tree, a file that does not parse (a truncated one), a tree with no experiment.
 */
export async function readSide(storage: Storage, path: string): Promise<Side> {
  try {
    const frontierFile = await readOptional(storage, FRONTIER_FILE, FrontierFileSchema)
    const single = await storage.exists('manifest.json')
    const dirs = single ? [''] : (await listExperiments(storage)).map((r) => r.dir)
    if (dirs.length === 0 && frontierFile === null) {
      throw new CompareInputError(
        `${path}: not a results tree (no experiments.json, no experiment folder with a manifest.json, no frontier.json)`,
      )
    }
    const models = dirs.length > 0 ? await readModels(storage, dirs) : evaluatedModels(frontierFile!)
    // One experiment per threat model: a tree holding two (another max-runs, another model) keeps the one with more measured.
    const byKey = new Map<string, ThreatModelResult>()
    for (const m of models) {
      const other = byKey.get(m.key)
      if (other === undefined || m.nCompleted > other.nCompleted) byKey.set(m.key, m)
    }
    const treeKeys = new Map(models.flatMap((m) => m.tasks.map((t) => [t.index, t.key] as const)))
    return { path, models: [...byKey.values()], frontier: frontierFile === null ? null : sideFrontier(frontierFile, treeKeys) }
  } catch (e) {
    if (e instanceof ResultsFormatError)
      throw new CompareInputError(`${path.replace(/\/+$/, '')}/${e.path}: ${e.message.slice(e.path.length + 2)}`)
    throw e
  }
}

/** The claims a side measured. */
export function claimsOf(side: Side): Set<string> {
  const claims = new Set(side.models.map((m) => m.claim))
  if (side.frontier) claims.add(side.frontier.claim)
  return claims
}

/**
 * The side's threat models that a list names (threat-models.json, or any list `sweep --threat-models` reads), each
 * under its name there unless its experiment was saved under one; the frontier's are left as they are.
 */
export function restrictSide(
  side: Side,
  list: ReadonlyArray<{ scope: readonly string[]; readOnly: readonly string[]; name?: string }>,
): Side {
  const names = new Map(list.map((m) => [threatModelKey(m.scope, m.readOnly), m.name ?? null]))
  const models = side.models
    .filter((m) => names.has(threatModelKey(m.scope, m.readOnly)))
    .map((m) => ({ ...m, name: m.name ?? names.get(threatModelKey(m.scope, m.readOnly)) ?? null }))
  return { ...side, models }
}
