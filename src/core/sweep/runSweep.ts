/**
 * A sweep, or one shard of it, on the engine: its sweep.json first (so a
 * shard stopped at any point still says what it was meant to run), then
 * every threat model of the shard through a Controller, `parallel` at a time,
 * each built only when a slot frees (a shard of 100,000 models never holds
 * 100,000 Controllers).
 *
 * Rerun with the same arguments, a shard resumes by superred's rules: the
 * Controller keeps every finished task and reruns the rest (errors
 * included). An experiment whose every task would be kept is not reopened
 * at all, so a resumed shard goes straight to what is missing.
 */
import type { Controller, ProgressReporter, ThreatModelResult } from '../engine'
import { ManifestFile } from '../results/format'
import { readOptional } from '../results/reader'
import { repairExperimentsIndex } from '../results/repairIndex'
import { goalHash } from '../results/slug'
import { joinPath, type Storage } from '../results/storage'
import { isKept } from '../results/summary'
import type { Forest } from '../tags'
import { SweepMismatchError } from './mergeRecords'
import {
  compareModelEntries,
  SWEEP_FILE,
  sweepIdOf,
  SweepRecordSchema,
  sweepRecordText,
  type SweepModelEntry,
  type SweepPlan,
  type SweepRecord,
  type SweepSelection,
} from './record'
import type { SelectedModel, Selection } from './select'
import { shardItems, shardText, type Indexed, type Shard } from './shard'

/** What every shard of one sweep shares. */
export interface SweepDefinition {
  readonly target: string
  readonly claim: string
  readonly attacker: string
  readonly forest: Forest
  readonly selection: SweepSelection
  readonly settings: SweepPlan['settings']
  readonly claimDigest: string
  readonly attackerDigest: string
}

export const modelEntry = (m: SelectedModel, dir: string): SweepModelEntry => ({
  dir,
  index: m.index === null ? '' : m.index.toString(),
  scope: [...m.scope],
  readOnly: [...m.readOnly],
  ...(m.name ? { name: m.name } : {}),
})

/** The record a shard writes before it starts: the sweep's plan and this shard's threat models with their folders. */
export function shardRecord(
  def: SweepDefinition,
  selection: Selection,
  shard: Shard,
  dirOf: (m: SelectedModel) => string,
  createdAt: number,
): SweepRecord {
  const mine = shardItems(selection, shard)
  const models: SweepModelEntry[] = []
  for (let k = 0n; k < mine.count; k++) {
    const m = mine.at(k)
    models.push(modelEntry(m, dirOf(m)))
  }
  models.sort(compareModelEntries)
  const plan: SweepPlan = {
    selection: def.selection,
    total: selection.count.toString(),
    shards: { count: shard.count, indices: [shard.index] },
    settings: def.settings,
    claimDigest: def.claimDigest,
    attackerDigest: def.attackerDigest,
  }
  const base = { target: def.target, claim: def.claim, attacker: def.attacker, forest: def.forest, plan }
  return {
    v: 1,
    id: sweepIdOf(base),
    createdAt,
    title: `Sweep of ${selection.count.toLocaleString('en-US')} threat models: ${def.claim} against ${def.target}`,
    target: def.target,
    claim: def.claim,
    attacker: def.attacker,
    forest: def.forest,
    models,
    plan,
  }
}

/**
 * Writes the shard's sweep.json, or checks the one already there: the same
 * sweep and shard resumes (keeping when it first started); anything else is
 * refused before a single result is written, naming `where`.
 */
export async function claimSweepFile(storage: Storage, record: SweepRecord, where: string): Promise<SweepRecord> {
  const existing = await readOptional(storage, SWEEP_FILE, SweepRecordSchema)
  let out = record
  if (existing !== null) {
    if (existing.id !== record.id) {
      throw new SweepMismatchError(
        'id',
        `${where} already holds another sweep's results (${existing.title}): give this sweep its own folder`,
      )
    }
    const was = existing.plan?.shards
    const now = record.plan!.shards
    if (was === undefined || was.count !== now.count || JSON.stringify(was.indices) !== JSON.stringify(now.indices)) {
      const whose =
        was === undefined
          ? 'a whole run of this sweep'
          : was.indices.length === 1
            ? `shard ${was.indices[0]}/${was.count} of this sweep`
            : `a merge of this sweep's shards`
      throw new SweepMismatchError(
        'plan.shards',
        `${where} holds ${whose}, and this is shard ${shardText({ index: now.indices[0], count: now.count })}:` +
          ` give each shard its own folder (e.g. results/shard-${now.indices[0]}), then merge them with redscope merge`,
      )
    }
    out = { ...record, createdAt: existing.createdAt }
  }
  await storage.writeTextAtomic(SWEEP_FILE, sweepRecordText(out))
  return out
}

const COMPLETED_STOPS = new Set(['success', 'done', 'max_runs', 'budget_exhausted'])

/**
 * True when reopening the experiment would keep every task (superred's
 * resume rule: success, failed, budget_exhausted, or timeout after a run;
 * skipped tasks skip again) and it has finished: nothing to do.
 */
export async function isSettled(storage: Storage, dir: string, goals: readonly string[]): Promise<boolean> {
  if (!(await storage.exists(joinPath(dir, 'result.json')))) return false
  let manifest
  try {
    manifest = await readOptional(storage, joinPath(dir, 'manifest.json'), ManifestFile)
  } catch {
    return false
  }
  if (manifest === null || manifest.status !== 'complete' || manifest.tasks.length !== goals.length) return false
  const byIndex = new Map(manifest.tasks.map((t) => [t.index, t]))
  return goals.every((goal, i) => {
    const t = byIndex.get(i + 1)
    return t !== undefined && t.goal_hash === goalHash(goal) && (t.status === 'skipped' || isKept(t.status, t.n_runs))
  })
}

/** One threat model's outcome, as a line of progress needs it. */
export interface ModelRunOutcome {
  /** Kept from an earlier run of this shard, ran now, or stopped by the signal before it finished. */
  readonly kind: 'kept' | 'ran' | 'cancelled'
  readonly nTasks: number
  readonly nSuccess: number
  readonly nCompleted: number
  readonly nError: number
}

export interface SweepProgress {
  modelEnd?(model: SelectedModel, dir: string, outcome: ModelRunOutcome): void
}

export interface RunSweepOptions {
  readonly storage: Storage
  /** This shard's threat models, in order. */
  readonly models: Indexed<SelectedModel>
  readonly dirOf: (m: SelectedModel) => string
  /** A Controller for one threat model, writing into `storage`; built when the model's turn comes. */
  readonly controllerFor: (m: SelectedModel) => Controller
  /** The claim's goals, in order (to tell a finished experiment without reopening it). */
  readonly goals: readonly string[]
  /** Threat models at once. */
  readonly parallel: number
  readonly reporter?: ProgressReporter
  readonly progress?: SweepProgress
  readonly signal?: AbortSignal
}

export interface SweepRunSummary {
  readonly models: number
  readonly kept: number
  readonly ran: number
  /** Threat models not finished because the signal stopped the sweep. */
  readonly unfinished: number
  readonly brokeClaim: number
  readonly tasks: { readonly success: number; readonly completed: number; readonly error: number }
  /** Finished folders experiments.json lacked (a run killed before their rows were written): added before anything ran. */
  readonly indexRepaired: readonly string[]
}

function outcomeOf(result: ThreatModelResult): ModelRunOutcome {
  const t = result.taskResults
  return {
    kind: result.cancelled ? 'cancelled' : 'ran',
    nTasks: t.length + result.skippedTasks.length,
    nSuccess: t.filter((r) => r.success && COMPLETED_STOPS.has(r.stopReason)).length,
    nCompleted: t.filter((r) => COMPLETED_STOPS.has(r.stopReason)).length,
    nError: t.filter((r) => r.stopReason === 'error').length,
  }
}

async function keptOutcome(storage: Storage, dir: string): Promise<ModelRunOutcome> {
  const m = (await readOptional(storage, joinPath(dir, 'manifest.json'), ManifestFile))!
  return {
    kind: 'kept',
    nTasks: m.tasks.length,
    nSuccess: m.summary.n_success,
    nCompleted: m.summary.n_completed,
    nError: m.summary.n_error,
  }
}

export async function runSweep(o: RunSweepOptions): Promise<SweepRunSummary> {
  const signal = o.signal ?? new AbortController().signal
  const total = Number(o.models.count)
  let next = 0
  let kept = 0
  let ran = 0
  let unfinished = 0
  let brokeClaim = 0
  const tasks = { success: 0, completed: 0, error: 0 }
  // Kept experiments are never reopened, so nothing else would add a row a killed run did not write.
  const indexRepaired = await repairExperimentsIndex(o.storage)
  const one = async (k: number) => {
    const model = o.models.at(BigInt(k))
    const dir = o.dirOf(model)
    let outcome: ModelRunOutcome
    if (await isSettled(o.storage, dir, o.goals)) {
      outcome = await keptOutcome(o.storage, dir)
      kept += 1
    } else {
      const controller = o.controllerFor(model)
      // The record named this folder before anything ran: a Controller that disagrees would write results the record cannot find.
      if (controller.label !== dir)
        throw new Error(`internal: threat model #${model.index ?? model.rank} runs as ${controller.label}, but the sweep recorded ${dir}`)
      outcome = outcomeOf(await controller.run({ reporter: o.reporter, signal }))
      if (outcome.kind === 'cancelled') unfinished += 1
      else ran += 1
    }
    brokeClaim += outcome.nSuccess > 0 ? 1 : 0
    tasks.success += outcome.nSuccess
    tasks.completed += outcome.nCompleted
    tasks.error += outcome.nError
    o.progress?.modelEnd?.(model, dir, outcome)
  }
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(o.parallel, total)) }, async () => {
      while (next < total) {
        if (signal.aborted) {
          unfinished += total - next
          next = total
          return
        }
        await one(next++)
      }
    }),
  )
  return { models: total, kept, ran, unfinished, brokeClaim, tasks, indexRepaired }
}
