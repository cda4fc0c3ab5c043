/**
 * Reads a results tree written by superred or by redscope. Every file is
 * parsed with its zod schema; a file that does not parse fails with its path
 * and the first problems, never with a cast that breaks later.
 */
import type { z } from 'zod'
import { jsonDeeperThan, MAX_JSON_DEPTH } from '../json'
import { ForestSchema, type Forest } from '../tags'
import {
  ATTACKER_CONFIG_FILE,
  ATTACKER_NOTES_FILE,
  AttackerConfigFile,
  AttackerFile,
  AttackerNotesFile,
  ECHOES_FILE,
  ExperimentEchoesFile,
  ExperimentsIndexFile,
  TaskEchoesFile,
  IterationsFile,
  ManifestFile,
  ResultFile,
  ExperimentUnpricedFile,
  RUN_RECORDS_FILE,
  RunRecordsFile,
  UNPRICED_FILE,
  type UnpricedJson,
  TASK_CONFIGS_FILE,
  TaskConfigsFile,
  TaskFile,
  THREAT_MODEL_FILE,
  ThreatModelFile,
  TrajectoryFile,
  type AttackerConfig,
  type ExperimentsIndexRow,
} from './format'
import { runFileName } from './slug'
import { sumUnpriced } from './cost'
import { joinPath, StorageNotFoundError, type Storage } from './storage'

export class ResultsFormatError extends Error {
  readonly path: string
  constructor(path: string, problem: string) {
    super(`${path}: ${problem}`)
    this.name = 'ResultsFormatError'
    this.path = path
  }
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
    .join('; ')
}

export async function readJsonFile<S extends z.ZodType>(storage: Storage, path: string, schema: S): Promise<z.infer<S>> {
  return parseJsonFile(await storage.readText(path), path, schema)
}

/** A results file's text parsed with its schema; every problem a ResultsFormatError naming `path`. */
export function parseJsonFile<S extends z.ZodType>(text: string, path: string, schema: S): z.infer<S> {
  // Parsed, it would crash the first recursive walk over it (stringify, render) with a stack overflow.
  if (jsonDeeperThan(text, MAX_JSON_DEPTH))
    throw new ResultsFormatError(path, `JSON nested deeper than ${MAX_JSON_DEPTH.toLocaleString('en-US')} levels (refused unparsed)`)
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (error) {
    throw new ResultsFormatError(path, `not JSON (${error instanceof Error ? error.message : String(error)})`)
  }
  const parsed = schema.safeParse(raw)
  if (!parsed.success) throw new ResultsFormatError(path, describeIssues(parsed.error))
  return parsed.data
}

/** Like readJsonFile, but null when the file is absent (optional files, redscope extras). */
export async function readOptional<S extends z.ZodType>(storage: Storage, path: string, schema: S): Promise<z.infer<S> | null> {
  try {
    return await readJsonFile(storage, path, schema)
  } catch (error) {
    if (error instanceof StorageNotFoundError) return null
    throw error
  }
}

/**
 * The experiments under a root: from experiments.json when present, else from
 * each folder's manifest (an interrupted run never wrote the index).
 */
export async function listExperiments(storage: Storage, root = ''): Promise<ExperimentsIndexRow[]> {
  const index = await readOptional(storage, joinPath(root, 'experiments.json'), ExperimentsIndexFile)
  const rows = new Map<string, ExperimentsIndexRow>((index?.experiments ?? []).map((r) => [r.dir, r]))
  for (const entry of await storage.list(root)) {
    if (entry.kind !== 'dir' || rows.has(entry.name)) continue
    const manifest = await readOptional(storage, joinPath(root, entry.name, 'manifest.json'), ManifestFile)
    if (manifest === null) continue
    rows.set(entry.name, {
      dir: entry.name,
      slug: manifest.experiment.slug,
      hash: manifest.experiment.hash,
      status: manifest.status,
      experiment: manifest.experiment,
      summary: {
        asr: manifest.summary.asr,
        n_success: manifest.summary.n_success,
        n_completed: manifest.summary.n_completed,
        total_llm_usage: manifest.summary.total_llm_usage,
      },
      completed_at: manifest.timing.completed_at,
      ...(await readThreatModelName(storage, joinPath(root, entry.name)).then((name) =>
        name === null ? {} : { threat_model_name: name },
      )),
      ...(await readUnpriced(storage, joinPath(root, entry.name)).then((byTask) => {
        const sum = sumUnpriced(byTask.values())
        return sum === null ? {} : { unpriced: sum }
      })),
    })
  }
  return [...rows.values()].sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0))
}

export interface ExperimentRecord {
  readonly dir: string
  readonly manifest: z.infer<typeof ManifestFile>
  /** Null until the run completed (result.json is the completion marker). */
  readonly result: z.infer<typeof ResultFile> | null
  /** redscope extra; null for a plain superred tree (the viewer then has to guess or be given a forest). */
  readonly domain: Forest | null
  /** redscope extra: each task's configuration by task index; empty for a tree without task_configs.json. */
  readonly taskConfigs: ReadonlyMap<number, Readonly<Record<string, string>>>
  /** redscope extra: each task's framework references (its claim's included) by task index; empty when none were given. */
  readonly taskReferences: ReadonlyMap<number, readonly string[]>
  /** redscope extra (attacker_config.json): the attacker's whole configuration; null for a tree that does not record it. */
  readonly attackerConfig: AttackerConfig | null
  /** redscope extra: which tasks had runs that echoed the attacker's own injection; null when none did (or superred wrote it). */
  readonly echoes: z.infer<typeof ExperimentEchoesFile> | null
  /** redscope extra: the name the threat model was saved under (threat_model.json); null when none was. */
  readonly threatModelName: string | null
  /** redscope extra (unpriced.json): each task's unpriced LLM calls by index; empty when every call was priced or the tree does not say. */
  readonly unpriced: ReadonlyMap<number, UnpricedJson>
}

export async function readExperiment(storage: Storage, dir: string): Promise<ExperimentRecord> {
  const manifest = await readJsonFile(storage, joinPath(dir, 'manifest.json'), ManifestFile)
  const result = await readOptional(storage, joinPath(dir, 'result.json'), ResultFile)
  const domain = await readOptional(storage, joinPath(dir, 'domain.json'), ForestSchema)
  const attacker = await readOptional(storage, joinPath(dir, ATTACKER_CONFIG_FILE), AttackerConfigFile)
  const echoes = await readOptional(storage, joinPath(dir, ECHOES_FILE), ExperimentEchoesFile)
  const taskFile = await readTaskConfigFile(storage, dir)
  return {
    dir,
    manifest,
    result,
    domain,
    taskConfigs: taskFile.configs,
    taskReferences: taskFile.references,
    attackerConfig: attacker?.config ?? null,
    echoes,
    threatModelName: await readThreatModelName(storage, dir),
    unpriced: await readUnpriced(storage, dir),
  }
}

/** unpriced.json by task index (a redscope extra; empty when absent). */
export async function readUnpriced(storage: Storage, experimentDir: string): Promise<ReadonlyMap<number, UnpricedJson>> {
  const file = await readOptional(storage, joinPath(experimentDir, UNPRICED_FILE), ExperimentUnpricedFile)
  return new Map((file?.tasks ?? []).map(({ index, ...u }) => [index, u]))
}

/** threat_model.json's name (a redscope extra); null when the folder has none. */
export async function readThreatModelName(storage: Storage, experimentDir: string): Promise<string | null> {
  return (await readOptional(storage, joinPath(experimentDir, THREAT_MODEL_FILE), ThreatModelFile))?.name ?? null
}

/** task_configs.json by task index (a redscope extra; empty when absent). */
export async function readTaskConfigs(
  storage: Storage,
  experimentDir: string,
): Promise<ReadonlyMap<number, Readonly<Record<string, string>>>> {
  return (await readTaskConfigFile(storage, experimentDir)).configs
}

/** task_configs.json's configs and framework references by task index (both empty when absent). */
export async function readTaskConfigFile(
  storage: Storage,
  experimentDir: string,
): Promise<{
  configs: ReadonlyMap<number, Readonly<Record<string, string>>>
  references: ReadonlyMap<number, readonly string[]>
}> {
  const file = await readOptional(storage, joinPath(experimentDir, TASK_CONFIGS_FILE), TaskConfigsFile)
  return {
    configs: new Map((file?.tasks ?? []).map((t) => [t.index, t.config])),
    references: new Map(
      (file?.tasks ?? []).flatMap((t) => (t.references && t.references.length > 0 ? [[t.index, t.references] as const] : [])),
    ),
  }
}

/** A task's configuration as one line: `defence=none, user_task=Summarise my unread emails.` */
export function configText(config: Readonly<Record<string, string>> | undefined): string {
  if (config === undefined) return ''
  return Object.entries(config)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ')
}

export interface TaskRecord {
  readonly dir: string
  readonly task: z.infer<typeof TaskFile>
  readonly iterations: z.infer<typeof IterationsFile> | null
  readonly attacker: z.infer<typeof AttackerFile> | null
  /** redscope extra: the task's runs that echoed the attacker's own injection; null when none did. */
  readonly echoes: z.infer<typeof TaskEchoesFile> | null
  /** redscope extra: the attacker's own notes (attacker_notes.json), when it kept any. */
  readonly attackerNotes: z.infer<typeof AttackerNotesFile> | null
  /** redscope extra (run_records.json): why each run ended and its unpriced calls; null for a tree that does not record them. */
  readonly runRecords: z.infer<typeof RunRecordsFile> | null
}

/**
 * `taskDir` relative to the storage root, e.g. `{experiment}/tasks/00001__goal`. `echoes: false` skips its
 * echoes.json (a caller that knows from the experiment's echoes.json that the task has none).
 */
export async function readTask(storage: Storage, taskDir: string, options: { echoes?: boolean } = {}): Promise<TaskRecord> {
  return {
    dir: taskDir,
    task: await readJsonFile(storage, joinPath(taskDir, 'task.json'), TaskFile),
    iterations: await readOptional(storage, joinPath(taskDir, 'iterations.json'), IterationsFile),
    attacker: await readOptional(storage, joinPath(taskDir, 'attacker.json'), AttackerFile),
    echoes: options.echoes === false ? null : await readOptional(storage, joinPath(taskDir, ECHOES_FILE), TaskEchoesFile),
    attackerNotes: await readOptional(storage, joinPath(taskDir, ATTACKER_NOTES_FILE), AttackerNotesFile),
    runRecords: await readOptional(storage, joinPath(taskDir, RUN_RECORDS_FILE), RunRecordsFile),
  }
}

/**
 * The tasks of an experiment that have a task.json (interrupted writes have none), by index. With the
 * experiment's echo summary, only the tasks it names have their echoes.json read (a sweep's report reads
 * thousands of tasks, most with none).
 */
export async function readTasks(
  storage: Storage,
  experimentDir: string,
  echoes?: z.infer<typeof ExperimentEchoesFile> | null,
): Promise<TaskRecord[]> {
  const out: TaskRecord[] = []
  const echoed = echoes === undefined ? null : new Set((echoes?.tasks ?? []).map((t) => t.index))
  for (const entry of await storage.list(joinPath(experimentDir, 'tasks'))) {
    if (entry.kind !== 'dir' || /\.(wip|old)$/.test(entry.name)) continue
    const dir = joinPath(experimentDir, 'tasks', entry.name)
    if (!(await storage.exists(joinPath(dir, 'task.json')))) continue
    // The folder's name starts with the task's index (00001__goal): known before task.json is read.
    const index = Number(/^(\d+)__/.exec(entry.name)?.[1] ?? NaN)
    out.push(await readTask(storage, dir, { echoes: echoed === null || Number.isNaN(index) || echoed.has(index) }))
  }
  return out.sort((a, b) => a.task.index - b.task.index)
}

/**
 * One run's trajectory file: the full one, or the attacker file older redscope trees hold beside it
 * (run_NNNNN.attacker.json); null if absent. What the attacker saw of any redscope tree: readAttackerView.
 */
export async function readTrajectory(
  storage: Storage,
  taskDir: string,
  runNumber: number,
  view: 'full' | 'attacker' = 'full',
): Promise<z.infer<typeof TrajectoryFile> | null> {
  const name = runFileName(runNumber, view === 'attacker' ? '.attacker' : '')
  return readOptional(storage, joinPath(taskDir, 'trajectories', name), TrajectoryFile)
}
