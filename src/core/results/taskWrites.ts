/**
 * A finished task's folder as data, then written: `planTaskWrites` computes every file from the task's result
 * (pure: no storage, no clock), `writeTaskPlan` performs the plan against a storage, through its bulk path when it
 * has one. The order that makes a folder safe to read is the plan's shape: the previous copy removed first, the
 * folder's files next, task.json last and atomic (a folder without it is an interrupted write, which readers skip
 * and a resume reruns).
 */
import { scopeNames, type SecurityDomain } from '../tags'
import type { TrajectoryItem } from '../engine/events'
import type { TaskResult } from '../engine/outcomes'
import { ATTACKER_NOTES_FILE, ECHOES_FILE, RUN_RECORDS_FILE, type ResultsSchemaVersion } from './format'
import { taskEchoesText } from './echoes'
import { runRecordsText } from './runRecords'
import { attackerFileText } from './experimentText'
import { iterationsFileText, taskFileText } from './taskText'
import { trajectoryJob, trajectoryTexts, type TrajectoryJob } from './trajectoryText'
import { runFileName } from './slug'
import { joinPath, type BulkWriter, type Storage } from './storage'
import { derivesTo } from './attackerView'
import { pyDumps } from './pyjson'
import type { ExperimentMeta } from './identityHash'

/** One file of the plan: atomic files are published (a reader may look at once); the others wait for task.json. */
export interface FileWrite {
  readonly path: string
  readonly text: string
  readonly atomic: boolean
}

export interface TaskWritePlan {
  /** The task folder, removed first when a previous copy may be there (null in a fresh experiment's first write). */
  readonly remove: string | null
  /**
   * The trajectory files, as a job the storage prints (on its writer thread, through the bulk path) or this
   * thread prints: `paths[i]` gets the i-th text. Unpublished, as `files`.
   */
  readonly trajectories: { readonly paths: readonly string[]; readonly job: TrajectoryJob }
  /** The folder's other files, unpublished, in the order they are written. */
  readonly files: readonly FileWrite[]
  /** task.json, written last and atomically: it publishes the folder. */
  readonly publish: FileWrite
  /** What task.json says of the task, for the session's view of it (rather than re-parsing the text). */
  readonly task: Pick<ReturnType<typeof taskFileText>, 'goalHash' | 'status'>
}

export interface TaskPlanInput {
  readonly index: number
  readonly result: TaskResult
  /** The task folder, relative to the storage root. */
  readonly taskDir: string
  /** Whether a previous copy of the folder may exist (a resume, or a second write of the same task). */
  readonly replaces: boolean
  readonly meta: ExperimentMeta
  readonly schema: ResultsSchemaVersion
  readonly countEchoes: boolean
  /** The forest domain.json holds (null before it is written): runs whose attacker view it rebuilds keep no attacker file. */
  readonly domain: SecurityDomain | null
  /** logs/diagnostics.log's text, or null when the task logged nothing. */
  readonly diagnostics: string | null
}

/** Every file of a finished task's folder, computed from its result: the same input gives the same plan. */
export function planTaskWrites(input: TaskPlanInput): TaskWritePlan {
  const { index, result: tr, taskDir, schema } = input
  // Each run's trajectory, once: what the attacker saw of it is derived on read with the engine's filter
  // (attackerView.ts). Only a run whose view names cannot rebuild (see derivesTo) keeps its attacker file.
  const runs: Array<{ path: string; run: number; items: readonly TrajectoryItem[] }> = []
  const derivable =
    input.domain === null ? null : derivesTo(input.domain, { scope: scopeNames(tr.scope), readOnly: scopeNames(tr.readOnly) })
  for (const [i, run] of tr.runs.entries()) {
    runs.push({ path: joinPath(taskDir, 'trajectories', runFileName(i + 1)), run: i + 1, items: run.trajectory })
    if (derivable === null || !derivable(run.trajectory, run.attackerView)) {
      runs.push({ path: joinPath(taskDir, 'trajectories', runFileName(i + 1, '.attacker')), run: i + 1, items: run.attackerView })
    }
  }
  const files: FileWrite[] = []
  const file = (name: string, text: string) => files.push({ path: joinPath(taskDir, name), text, atomic: false })
  file('iterations.json', iterationsFileText(tr, index, schema))
  if (tr.offered) file('attacker.json', attackerFileText(tr.scope, tr.readOnly, tr.offered, schema))
  const echoes = taskEchoesText(tr.runs, input.countEchoes, schema)
  if (echoes !== null) file(ECHOES_FILE, echoes)
  const records = runRecordsText(tr, schema)
  if (records !== null) file(RUN_RECORDS_FILE, records)
  if (tr.attackerNotes && tr.attackerNotes.length > 0) {
    const notes = tr.attackerNotes.map((n) => ({ run: n.run, during: n.during, text: n.text }))
    // As writer.ts's dumpFile: indent 2, non-ASCII kept.
    file(ATTACKER_NOTES_FILE, pyDumps({ schema_version: schema, notes }, { indent: 2, ensureAscii: false }))
  }
  if (input.diagnostics !== null) file(joinPath('logs', 'diagnostics.log'), input.diagnostics)
  const task = taskFileText(tr, index, input.meta, schema)
  return {
    remove: input.replaces ? taskDir : null,
    trajectories: { paths: runs.map((r) => r.path), job: trajectoryJob(runs, schema) },
    files,
    publish: { path: joinPath(taskDir, 'task.json'), text: task.text, atomic: true },
    task: { goalHash: task.goalHash, status: task.status },
  }
}

/** Writes at most this many files at once: enough to keep a writer thread busy, few enough not to flood it. */
const BATCH = 16

/**
 * Performs a plan: removes, writes the unpublished files (trajectories through `bulk` when the storage has it,
 * printed on its thread while this one writes the rest), then publishes task.json. `bulk` is the storage's, read
 * once by the caller. The plan's trajectory job may be taken over by the storage: a plan is written once.
 */
export async function writeTaskPlan(storage: Storage, bulk: BulkWriter | null, plan: TaskWritePlan): Promise<void> {
  if (plan.remove !== null) await storage.remove(plan.remove)
  const { paths, job } = plan.trajectories
  const printed = bulk === null ? null : bulk.writeTrajectoriesUnpublished(paths, job)
  const writes: FileWrite[] = printed === null ? trajectoryTexts(job).map((text, i) => ({ path: paths[i], text, atomic: false })) : []
  writes.push(...plan.files)
  const write = (w: FileWrite) =>
    bulk !== null && !w.atomic ? bulk.writeTextUnpublished(w.path, w.text) : storage.writeTextAtomic(w.path, w.text)
  const written = (async () => {
    for (let i = 0; i < writes.length; i += BATCH) await Promise.all(writes.slice(i, i + BATCH).map(write))
  })()
  await Promise.all([printed, written])
  await storage.writeTextAtomic(plan.publish.path, plan.publish.text)
}
