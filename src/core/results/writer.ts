/**
 * The persistence session the Controller drives (the reference's
 * ExperimentSession): open (plan the resume, snapshot prior state), publish
 * each task as it lands, rewrite the manifest, finalize with result.json last.
 */
import type { z } from 'zod'
import { forestOf, type SecurityDomain } from '../tags'
import type { TaskResult } from '../engine/outcomes'
import type { Task } from '../engine/target'
import { evaluationResult, score, type StopReason } from '../engine/types'
import { utcIso } from '../engine/time'
import { ExperimentsIndex } from './experimentsIndex'
import {
  ATTACKER_CONFIG_FILE,
  ECHOES_FILE,
  ExperimentEchoesFile,
  ExperimentUnpricedFile,
  ResultFile,
  SCHEMA_VERSION,
  TASK_CONFIGS_FILE,
  TaskFile,
  THREAT_MODEL_FILE,
  UNPRICED_FILE,
  type ResultsSchemaVersion,
  type UnpricedJson,
} from './format'
import { echoedRunNumbers, experimentEchoesText } from './echoes'
import { sumUnpriced, unpricedJsonOf, unpricedUsageOf } from './cost'
import { experimentUnpricedText } from './runRecords'
import { indexRowAsSchema } from './schema4'
import { dirNameOf, identityHash, slugOf, type ExperimentMeta } from './identityHash'
import { pyDumps } from './pyjson'
import { experimentJson } from './serialize'
import { experimentText, manifestEntryText, manifestText, resultText, skippedEntryText } from './experimentText'
import { goalHash, taskDirName } from './slug'
import { joinPath, linkTree, type BulkWriter, type Storage } from './storage'
import { planTaskWrites, writeTaskPlan } from './taskWrites'
import { computeSummary, isKept, taskViewOf, type TaskView } from './summary'
import { AttackerClashError, readAttackerConfig, sameAttackerConfig } from './attackerConfig'

/** Files as superred writes them: indent 2, non-ASCII kept. */
export function dumpFile(payload: unknown): string {
  return pyDumps(payload, { indent: 2, ensureAscii: false })
}

interface IndexRowParts {
  readonly dir: string
  readonly slug: string
  readonly hash: string
  readonly experiment: unknown
  readonly summary: { readonly asr: unknown; readonly n_success: unknown; readonly n_completed: unknown; readonly total_llm_usage: unknown }
  readonly completedAt: string | null
  readonly threatModelName: string | null
  readonly unpriced: UnpricedJson | null
}

/**
 * A finished experiment's experiments.json row, its redscope extras (the saved name, the unpriced calls) only when
 * it has them: the writer's, and the one a merge rebuilds for a run stopped before its row was written.
 */
export function completeIndexRow(p: IndexRowParts): { dir: string; [key: string]: unknown } {
  const { asr, n_success, n_completed, total_llm_usage } = p.summary
  return {
    dir: p.dir,
    slug: p.slug,
    hash: p.hash,
    status: 'complete',
    experiment: p.experiment,
    summary: { asr, n_success, n_completed, total_llm_usage },
    completed_at: p.completedAt,
    ...(p.threatModelName !== null ? { threat_model_name: p.threatModelName } : {}),
    ...(p.unpriced !== null ? { unpriced: p.unpriced } : {}),
  }
}

export interface ResumePlan {
  readonly keep: ReadonlySet<number>
  readonly rerun: ReadonlySet<number>
  readonly isFresh: boolean
}

export interface DiagnosticLine {
  readonly level: string
  readonly message: string
}

const locks = new WeakMap<Storage, Set<string>>()

/**
 * The in-progress manifest is rewritten whole as tasks land. Up to 63 tasks, at every one (as superred does); beyond,
 * once every 1/32 of the tasks so far, so the bytes rewritten stay linear in the tasks rather than quadratic (a
 * 2,000-task experiment's manifest is ~1 MB). What a resume reads is each task's task.json, written before this;
 * after a crash, the manifest of a long experiment may lack the last few tasks that landed.
 */
const MANIFEST_REWRITE_SHARE = 32

/**
 * A file of the folder parsed with its schema, or null when it is missing or unreadable: what a resume finds half
 * written or absent is recomputed, never trusted.
 */
async function readOrNull<S extends z.ZodType>(storage: Storage, path: string, schema: S): Promise<z.infer<S> | null> {
  try {
    return schema.parse(JSON.parse(await storage.readText(path)))
  } catch {
    return null
  }
}

/** Reads and parses a task.json, or null when it is missing or unreadable (then the task is outstanding). */
const readTaskFile = (storage: Storage, path: string): Promise<TaskFile | null> => readOrNull(storage, path, TaskFile)

/** When the experiment finished, from its result.json; null when it has none (or one that does not parse). */
async function readFinishedTiming(storage: Storage, dir: string): Promise<{ startedAt: string; completedAt: string } | null> {
  const timing = (await readOrNull(storage, joinPath(dir, 'result.json'), ResultFile))?.timing
  return timing !== undefined && timing.started_at !== null && timing.completed_at !== null
    ? { startedAt: timing.started_at, completedAt: timing.completed_at }
    : null
}

/** The experiment's echoes.json (which tasks had echoed runs, judged which way), or null when absent or unreadable. */
async function readExperimentEchoes(
  storage: Storage,
  dir: string,
): Promise<{ count_echoes: boolean; byTask: Map<number, readonly number[]> } | null> {
  const file = await readOrNull(storage, joinPath(dir, ECHOES_FILE), ExperimentEchoesFile)
  return file === null ? null : { count_echoes: file.count_echoes, byTask: new Map(file.tasks.map((t) => [t.index, t.runs])) }
}

/** The experiment's unpriced.json (which tasks had unpriced calls), or null when absent or unreadable. */
async function readExperimentUnpriced(storage: Storage, dir: string): Promise<Map<number, UnpricedJson> | null> {
  const file = await readOrNull(storage, joinPath(dir, UNPRICED_FILE), ExperimentUnpricedFile)
  return file === null ? null : new Map(file.tasks.map(({ index, ...u }) => [index, u]))
}

/** Current task folders that hold a readable task.json, by index. */
async function scanTasks(storage: Storage, dir: string): Promise<Map<number, TaskView>> {
  const views = new Map<number, TaskView>()
  for (const entry of await storage.list(joinPath(dir, 'tasks'))) {
    if (entry.kind !== 'dir' || entry.name.endsWith('.wip') || entry.name.endsWith('.old')) continue
    const data = await readTaskFile(storage, joinPath(dir, 'tasks', entry.name, 'task.json'))
    if (data !== null) views.set(data.index, taskViewOf(data, `tasks/${entry.name}`))
  }
  return views
}

export class ExperimentSession {
  readonly storage: Storage
  /** The storage's bulk path, read once: every task folder is written through it when it is there. */
  private readonly bulk: BulkWriter | null
  readonly root: string
  readonly meta: ExperimentMeta
  /** The experiment folder, relative to the storage root. */
  readonly dir: string
  readonly plan: ResumePlan
  private readonly views: Map<number, TaskView>
  private readonly skipped = new Map<number, string>()
  private readonly taskLogs = new Map<number, DiagnosticLine[]>()
  private readonly experimentLog: DiagnosticLine[] = []
  private manifestQueue: Promise<unknown> = Promise.resolve()
  /** A manifest write queued and not started yet: later changes ride on it instead of queueing another. */
  private manifestQueued: Promise<void> | null = null
  /** Task folders this session wrote: a second write of one replaces the first. */
  private readonly published = new Set<number>()
  private domainWritten = false
  /** The forest domain.json holds, once written: what a reader derives the attacker's view with. */
  private domain: SecurityDomain | null = null
  /** The saved threat model's name (threat_model.json), repeated in the index row. */
  private threatModelName: string | null = null
  /** Tasks landed since the last in-progress manifest write started (see MANIFEST_REWRITE_SHARE). */
  private landedSinceManifest = 0
  private experimentPrint: string | null = null
  private closed = false
  /** Set on open when the folder holds a finished experiment and nothing reruns: its result.json stays as it is. */
  private finished: { startedAt: string; completedAt: string } | null = null
  /** The schema every file is written in (4 drops what superred 0.3.0 does not know). */
  readonly schema: ResultsSchemaVersion
  /** The identity, hashed once: every manifest, result.json and the index row repeat it. */
  private readonly slug: string
  private readonly hash: string
  /** Echoes counted as successes in this session (the echo rule); recorded in the echo files. */
  readonly countEchoes: boolean
  /** Echoed run numbers by task index (kept tasks' from the folder's echoes.json): the experiment's echoes.json. */
  private readonly echoes: Map<number, readonly number[]>
  /** The experiment's echoes.json exists (from before, or written by this session): rewritten with the manifest. */
  private echoesFilePresent: boolean
  /** Unpriced calls by task index (kept tasks' from the folder's unpriced.json): the experiment's unpriced.json. */
  private readonly unpriced: Map<number, UnpricedJson>
  private unpricedFilePresent: boolean

  private constructor(
    storage: Storage,
    root: string,
    meta: ExperimentMeta,
    identity: { slug: string; hash: string },
    plan: ResumePlan,
    views: Map<number, TaskView>,
    schema: ResultsSchemaVersion,
    echoes: { count: boolean; byTask: Map<number, readonly number[]>; present: boolean },
    unpriced: { byTask: Map<number, UnpricedJson>; present: boolean },
  ) {
    this.schema = schema
    this.unpriced = unpriced.byTask
    this.unpricedFilePresent = unpriced.present
    this.countEchoes = echoes.count
    this.echoes = echoes.byTask
    this.echoesFilePresent = echoes.present
    this.storage = storage
    this.bulk = storage.bulk ?? null
    this.root = root
    this.meta = meta
    this.slug = identity.slug
    this.hash = identity.hash
    this.dir = joinPath(root, dirNameOf(this.slug, this.hash))
    this.plan = plan
    this.views = views
  }

  /** Resolves the folder, locks it (in this process), plans the resume, snapshots prior state before any rerun. */
  static async open(
    storage: Storage,
    root: string,
    meta: ExperimentMeta,
    goals: readonly string[],
    options: { overwrite?: boolean; schema?: ResultsSchemaVersion; countEchoes?: boolean } = {},
  ): Promise<ExperimentSession> {
    const identity = { slug: slugOf(meta), hash: identityHash(meta) }
    const dir = joinPath(root, dirNameOf(identity.slug, identity.hash))
    const held = locks.get(storage) ?? new Set<string>()
    locks.set(storage, held)
    if (held.has(dir)) throw new Error(`experiment ${dir} is locked by another run`)
    held.add(dir)
    try {
      const fresh = !(await storage.exists(joinPath(dir, 'manifest.json'))) && !(await storage.exists(joinPath(dir, 'tasks')))
      const asked = meta.attackerConfig ?? null
      // Another attacker's results are never resumed (they would be this attacker's verdict); overwrite reruns them all.
      if (!fresh && asked !== null && !options.overwrite) {
        const held = await readAttackerConfig(storage, dir)
        if (!sameAttackerConfig(held, asked)) throw new AttackerClashError({ dir, held, asked })
      }
      const prior = fresh ? new Map<number, TaskView>() : await scanTasks(storage, dir)
      const countEchoes = options.countEchoes ?? false
      const priorEchoes = fresh ? null : await readExperimentEchoes(storage, dir)
      const keep = new Set<number>()
      if (!fresh && !options.overwrite) {
        goals.forEach((goal, i) => {
          const view = prior.get(i + 1)
          // A task whose echoes were judged the other way would not have run as it did (an echo counted ends it): rerun.
          const echoesDisagree =
            priorEchoes !== null && priorEchoes.count_echoes !== countEchoes && (priorEchoes.byTask.get(i + 1)?.length ?? 0) > 0
          if (view && view.goalHash === goalHash(goal) && isKept(view.status, view.nRuns) && !echoesDisagree) keep.add(i + 1)
        })
      }
      const rerun = new Set(goals.map((_, i) => i + 1).filter((i) => !keep.has(i)))
      const views = new Map<number, TaskView>()
      if (!fresh) {
        const valid = new Set(goals.map((g, i) => taskDirName(i + 1, g)))
        const taskEntries = await storage.list(joinPath(dir, 'tasks'))
        const stale = taskEntries.filter((e) => e.kind === 'dir' && !valid.has(e.name) && !/\.(wip|old)$/.test(e.name))
        if (rerun.size > 0 || stale.length > 0) await snapshotCurrent(storage, dir)
        for (const e of stale) await storage.remove(joinPath(dir, 'tasks', e.name))
        for (const i of keep) views.set(i, prior.get(i)!)
      }
      const echoes = new Map<number, readonly number[]>()
      for (const i of keep) {
        const runs = priorEchoes?.byTask.get(i)
        if (runs && runs.length > 0) echoes.set(i, runs)
      }
      const priorUnpriced = fresh ? null : await readExperimentUnpriced(storage, dir)
      const unpriced = new Map<number, UnpricedJson>()
      for (const i of keep) {
        const u = priorUnpriced?.get(i)
        if (u && u.calls > 0) unpriced.set(i, u)
      }
      const session = new ExperimentSession(
        storage,
        root,
        meta,
        identity,
        { keep, rerun, isFresh: fresh },
        views,
        options.schema ?? SCHEMA_VERSION,
        { count: countEchoes, byTask: echoes, present: priorEchoes !== null },
        { byTask: unpriced, present: priorUnpriced !== null },
      )
      // Nothing to rerun in a folder whose result.json was written: it finished (perhaps killed before its manifest said
      // so), and finishing it again must not restamp it with this resume's times.
      if (!fresh && rerun.size === 0) session.finished = await readFinishedTiming(storage, dir)
      if (asked !== null) {
        await storage.writeTextAtomic(joinPath(dir, ATTACKER_CONFIG_FILE), dumpFile({ schema_version: session.schema, config: asked }))
      }
      await session.writeManifest('in_progress', null, null)
      return session
    } catch (error) {
      held.delete(dir)
      throw error
    }
  }

  /** A kept task as a lightweight result: scalars from task.json, no runs (they stay on disk). */
  async keptTaskResult(index: number, task: Task): Promise<TaskResult> {
    const view = this.views.get(index)
    const data = view ? await readTaskFile(this.storage, joinPath(this.dir, view.dir, 'task.json')) : null
    if (data === null || view === undefined) throw new Error(`no persisted task with index ${index} in ${this.dir}`)
    const best = score(data.best_score.value, null, data.best_score.name)
    const parseDate = (s: string | null) => (s === null || Number.isNaN(Date.parse(s)) ? new Date(0) : new Date(s))
    return {
      task,
      index,
      runs: [],
      bestScore: best,
      bestEvaluation: evaluationResult({
        success: data.best_evaluation.success,
        primaryScore: best,
        rationale: data.best_evaluation.rationale,
      }),
      success: data.success,
      llmUsage: {
        calls: data.llm_usage.calls,
        cost: data.llm_usage.cost,
        ...(this.unpriced.has(index) ? { unpriced: unpricedUsageOf(this.unpriced.get(index)) } : {}),
      },
      stopReason: data.stop_reason as StopReason,
      scope: new Set(),
      readOnly: new Set(),
      error: data.error,
      startedAt: parseDate(data.timing.started_at),
      endedAt: parseDate(data.timing.ended_at),
      nRuns: data.n_runs,
    }
  }

  /**
   * redscope extra: each task's configuration (task_configs.json), when any
   * task has one, so that tasks sharing a goal say which defence they faced.
   */
  async writeTaskConfigs(tasks: readonly Task[]): Promise<void> {
    if (!tasks.some((t) => (t.config !== undefined && Object.keys(t.config).length > 0) || (t.references?.length ?? 0) > 0)) return
    const rows = tasks.map((t, i) => ({
      index: i + 1,
      goal: t.goal.description,
      config: { ...(t.config ?? {}) },
      ...(t.references && t.references.length > 0 ? { references: [...t.references] } : {}),
    }))
    await this.storage.writeTextAtomic(joinPath(this.dir, TASK_CONFIGS_FILE), dumpFile({ schema_version: this.schema, tasks: rows }))
  }

  /**
   * redscope extra: the forest, so a viewer can rebuild the attacker's view, with its tags' framework references
   * (from which reports derive their summary by framework). Written once.
   */
  async writeDomain(domain: SecurityDomain, references: ReadonlyMap<string, readonly string[]> = new Map()): Promise<void> {
    if (this.domainWritten) return
    this.domainWritten = true
    await this.storage.writeTextAtomic(joinPath(this.dir, 'domain.json'), dumpFile(forestOf(domain, new Map(), references)))
    this.domain = domain
  }

  /** redscope extra: the name the threat model was saved under (threat_model.json); the index row repeats it. */
  async writeThreatModelName(name: string): Promise<void> {
    this.threatModelName = name
    await this.storage.writeTextAtomic(joinPath(this.dir, THREAT_MODEL_FILE), dumpFile({ schema_version: this.schema, name }))
  }

  log(index: number | null, level: string, message: string): void {
    const line = { level, message }
    if (index === null) this.experimentLog.push(line)
    else {
      const lines = this.taskLogs.get(index) ?? []
      lines.push(line)
      this.taskLogs.set(index, lines)
    }
  }

  beginTask(index: number): void {
    this.taskLogs.set(index, [])
  }

  /**
   * Writes a finished task: its folder planned as data (taskWrites.ts: the previous copy, already snapshotted,
   * removed first; task.json last, so a folder without it is an interrupted write, which readers skip and a
   * resume reruns), then written; then the session's own view of it.
   */
  async publishTask(index: number, tr: TaskResult): Promise<void> {
    const name = taskDirName(index, tr.task.goal.description)
    const lines = this.taskLogs.get(index) ?? []
    const plan = planTaskWrites({
      index,
      result: tr,
      taskDir: joinPath(this.dir, 'tasks', name),
      // In a fresh experiment no task folder exists yet, so there is nothing to remove.
      replaces: !this.plan.isFresh || this.published.has(index),
      meta: this.meta,
      schema: this.schema,
      countEchoes: this.countEchoes,
      domain: this.domain,
      diagnostics: lines.length > 0 ? jsonl(lines, index) : null,
    })
    this.published.add(index)
    const echoed = echoedRunNumbers(tr.runs)
    if (echoed.length > 0) this.echoes.set(index, echoed)
    else this.echoes.delete(index)
    const unpriced = unpricedJsonOf(tr.llmUsage)
    if (unpriced !== null) this.unpriced.set(index, unpriced)
    else this.unpriced.delete(index)
    await writeTaskPlan(this.storage, this.bulk, plan)
    const task = plan.task
    this.taskLogs.delete(index)
    // The view of what was just written, read off the values it was printed from rather than re-parsed from the text.
    const startedAt = utcIso(tr.startedAt)
    const endedAt = utcIso(tr.endedAt)
    this.views.set(index, {
      index,
      goal: tr.task.goal.description,
      goalHash: task.goalHash,
      dir: `tasks/${name}`,
      status: task.status,
      success: tr.success,
      stopReason: tr.stopReason,
      bestScore: tr.bestScore.value,
      nRuns: tr.runs.length,
      calls: tr.llmUsage.calls,
      cost: tr.llmUsage.cost,
      error: tr.error,
      startedAt,
      endedAt,
    })
    this.landedSinceManifest += 1
    if (this.landedSinceManifest >= Math.max(1, Math.floor(this.views.size / MANIFEST_REWRITE_SHARE))) {
      await this.writeManifest('in_progress', null, null)
    }
  }

  markSkipped(index: number, goal: string): void {
    this.skipped.set(index, goal)
    this.taskLogs.delete(index)
  }

  /**
   * result.json (the completion marker), the final manifest, then the root index: its row written before this
   * resolves, or with `queueIndexRow` only queued, for a sweep that settles the index once it ends (see ExperimentsIndex).
   */
  async finalize(startedAt: Date, endedAt: Date, options: { queueIndexRow?: boolean } = {}): Promise<void> {
    try {
      const views = this.sortedViews()
      const summary = computeSummary(views, this.skipped.size)
      const finished = this.finished
      const completed = finished?.completedAt ?? utcIso(endedAt)
      await this.writeExperimentLog()
      if (finished === null) {
        await this.storage.writeTextAtomic(
          joinPath(this.dir, 'result.json'),
          resultText(this.experimentPrinted(), startedAt, completed, summary, this.schema),
        )
      }
      await this.writeManifest('complete', completed, finished?.startedAt ?? startedAt)
      await this.updateExperimentsIndex(summary, completed, options.queueIndexRow ?? false)
    } finally {
      this.release()
    }
  }

  /** Releases the lock without finalizing: the manifest stays in_progress (listing every task that landed) and result.json absent. */
  async abort(): Promise<void> {
    try {
      if (this.landedSinceManifest > 0) await this.writeManifest('in_progress', null, null)
      await this.writeExperimentLog()
    } finally {
      this.release()
    }
  }

  private release(): void {
    if (this.closed) return
    this.closed = true
    locks.get(this.storage)?.delete(this.dir)
  }

  private experimentBlock() {
    return experimentJson(this.meta, this.slug, this.hash)
  }

  /** The experiment block as every manifest and result.json print it: the same text each time, printed once. */
  private experimentPrinted(): string {
    return (this.experimentPrint ??= experimentText(this.experimentBlock(), this.schema))
  }

  private sortedViews(): TaskView[] {
    return [...this.views.values()].sort((a, b) => a.index - b.index)
  }

  private async writeExperimentLog(): Promise<void> {
    if (this.experimentLog.length === 0) return
    await this.storage.writeTextAtomic(joinPath(this.dir, 'logs', 'diagnostics.log'), jsonl(this.experimentLog, null))
  }

  /**
   * Serialised: concurrent tasks landing at once must not interleave manifest
   * writes. An in-progress write that finds one already queued rides on it:
   * that write reads the views when it starts, so it holds this change too.
   */
  private writeManifest(status: 'in_progress' | 'complete', completedAt: string | null, startedAt: Date | string | null): Promise<void> {
    if (status === 'in_progress' && this.manifestQueued !== null) return this.manifestQueued
    const write = async () => {
      if (queued === this.manifestQueued) this.manifestQueued = null
      this.landedSinceManifest = 0
      const views = this.sortedViews()
      const entries: Array<[number, string]> = views.map((v) => [v.index, manifestEntryText(v)])
      for (const [index, goal] of this.skipped) entries.push([index, skippedEntryText(index, goal, goalHash(goal))])
      entries.sort((a, b) => a[0] - b[0])
      await this.storage.writeTextAtomic(
        joinPath(this.dir, 'manifest.json'),
        manifestText(
          {
            status,
            experiment: this.experimentPrinted(),
            startedAt,
            completedAt,
            summary: computeSummary(views, this.skipped.size),
            entries: entries.map((e) => e[1]),
          },
          this.schema,
        ),
      )
      // Beside the manifest it summarises: while any task has an echoed run, or to clear one a rerun left behind.
      if (this.echoes.size > 0 || this.echoesFilePresent) {
        this.echoesFilePresent = true
        await this.storage.writeTextAtomic(
          joinPath(this.dir, ECHOES_FILE),
          experimentEchoesText(this.echoes, this.countEchoes, this.schema),
        )
      }
      // Likewise the unpriced calls, so the experiment's totals never read as whole when some calls had no price.
      if (this.unpriced.size > 0 || this.unpricedFilePresent) {
        this.unpricedFilePresent = true
        await this.storage.writeTextAtomic(joinPath(this.dir, UNPRICED_FILE), experimentUnpricedText(this.unpriced, this.schema))
      }
    }
    const queued: Promise<void> = this.manifestQueue.then(write, write)
    if (status === 'in_progress') this.manifestQueued = queued
    this.manifestQueue = queued.catch(() => {})
    return queued
  }

  private async updateExperimentsIndex(summary: ReturnType<typeof computeSummary>, completedAt: string, queue: boolean): Promise<void> {
    // Each row is its own experiment's schema (redscope and superred read 4 and 5); the file's version is the last writer's.
    const row = indexRowAsSchema(
      this.schema,
      completeIndexRow({
        dir: dirNameOf(this.slug, this.hash),
        slug: this.slug,
        hash: this.hash,
        experiment: this.experimentBlock(),
        summary,
        completedAt,
        threatModelName: this.threatModelName,
        // The experiment's unpriced calls: absent when every call was priced.
        unpriced: sumUnpriced([...this.views.keys()].map((i) => this.unpriced.get(i))),
      }),
    ) as { dir: string }
    const index = ExperimentsIndex.of(this.storage, this.root)
    if (queue) index.queue(row, this.schema)
    else await index.upsert(row, this.schema)
  }
}

/** The reference's per-task diagnostics: one JSON object a line. */
function jsonl(lines: readonly DiagnosticLine[], index: number | null): string {
  return lines
    .map((l) => JSON.stringify({ ts: utcIso(), level: l.level, logger_name: 'redscope', task_index: index, message: l.message }) + '\n')
    .join('')
}

/** Copies the current state into the next previous_NN/ before anything current changes. */
async function snapshotCurrent(storage: Storage, dir: string): Promise<void> {
  let n = 0
  for (const e of await storage.list(dir)) {
    const m = /^previous_(\d+)$/.exec(e.name)
    if (m && e.kind === 'dir') n = Math.max(n, Number(m[1]))
  }
  const snapshot = joinPath(dir, `previous_${String(n + 1).padStart(2, '0')}`)
  for (const name of ['result.json', 'manifest.json', ATTACKER_CONFIG_FILE, ECHOES_FILE, UNPRICED_FILE]) {
    if (await storage.exists(joinPath(dir, name))) await storage.linkOrCopy(joinPath(dir, name), joinPath(snapshot, name))
  }
  for (const name of ['logs', 'tasks']) await linkTree(storage, joinPath(dir, name), joinPath(snapshot, name))
}
