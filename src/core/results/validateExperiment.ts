/**
 * Every file of an experiment folder checked as its reader would read it: UTF-8 (when the storage gives
 * bytes), JSON no deeper than the reader takes, and the reader's own zod schema for the files it knows.
 * A merge checks what it copies first, so that a truncated, empty, garbled or mis-shaped file is refused
 * naming it instead of being carried into a tree that `redscope results` then cannot read.
 *
 * Left out, as readers leave them out: a task folder without task.json (a write cut short: the task is
 * outstanding, a resume reruns it), `.wip`/`.old` folders and `.tmp` files (a rename that never happened).
 */
import { z } from 'zod'
import { decodeUtf8, InvalidUtf8Error } from '../json'
import { ForestSchema } from '../tags'
import {
  AttackerFile,
  IterationsFile,
  ManifestFile,
  ResultFile,
  TASK_CONFIGS_FILE,
  TaskConfigsFile,
  TaskFile,
  TrajectoryFile,
} from './format'
import { parseJsonFile, ResultsFormatError } from './reader'
import { joinPath, type Storage } from './storage'

const AnyJson = z.unknown()
/** A diagnostics log: one JSON object a line. */
const LogLine = z.looseObject({})

const EXPERIMENT_FILES: Readonly<Record<string, z.ZodType>> = {
  'manifest.json': ManifestFile,
  'result.json': ResultFile,
  'domain.json': ForestSchema,
  [TASK_CONFIGS_FILE]: TaskConfigsFile,
}
const TASK_FILES: Readonly<Record<string, z.ZodType>> = {
  'task.json': TaskFile,
  'iterations.json': IterationsFile,
  'attacker.json': AttackerFile,
}
const RUN_FILE = /^run_\d+(\.attacker)?\.json$/

type Check = z.ZodType | 'log' | null

/** How a file (its path inside the experiment folder) is checked; null: not a results file (left as it is). */
export function checkFor(rel: string): Check {
  const parts = rel.split('/')
  // A snapshot of an earlier state (previous_NN/) holds the same files.
  if (/^previous_\d+$/.test(parts[0])) parts.shift()
  const name = parts[parts.length - 1]
  if (name.endsWith('.tmp') || parts.some((p) => p.endsWith('.wip') || p.endsWith('.old'))) return null
  if (name.endsWith('.log')) return 'log'
  if (parts.length === 1) return EXPERIMENT_FILES[name] ?? (name.endsWith('.json') ? AnyJson : null)
  if (parts[0] === 'tasks' && parts.length === 3 && TASK_FILES[name]) return TASK_FILES[name]
  if (parts[0] === 'tasks' && parts.length === 4 && parts[2] === 'trajectories' && RUN_FILE.test(name)) return TrajectoryFile
  return name.endsWith('.json') ? AnyJson : null
}

/** The task folders (as `tasks/NAME` or `previous_NN/tasks/NAME`) among `files` that have a task.json. */
function publishedTasks(files: readonly string[]): Set<string> {
  const out = new Set<string>()
  for (const f of files) {
    const m = /^((?:previous_\d+\/)?tasks\/[^/]+)\/task\.json$/.exec(f)
    if (m) out.add(m[1])
  }
  return out
}

const taskDirOf = (rel: string) => /^((?:previous_\d+\/)?tasks\/[^/]+)\//.exec(rel)?.[1] ?? null

async function textOf(storage: Storage, path: string, shown: string): Promise<string> {
  if (!storage.readBytes) return storage.readText(path)
  try {
    return decodeUtf8(await storage.readBytes(path))
  } catch (e) {
    if (e instanceof InvalidUtf8Error) throw new ResultsFormatError(shown, e.message)
    throw e
  }
}

export async function checkFile(storage: Storage, path: string, check: Exclude<Check, null>, shown: string): Promise<void> {
  const text = await textOf(storage, path, shown)
  if (check !== 'log') {
    parseJsonFile(text, shown, check)
    return
  }
  const lines = text.split('\n')
  // Written whole (one JSON object and its newline a line): a last line without its newline was cut short.
  if (lines[lines.length - 1] !== '') throw new ResultsFormatError(shown, 'its last line is cut short (no newline after it)')
  lines.forEach((line, i) => {
    if (line.trim() !== '') parseJsonFile(line, `${shown} line ${i + 1}`, LogLine)
  })
}

/**
 * Checks every results file of the experiment folder `dir` of `storage` (`files`: their paths inside it),
 * `limit` at a time. Throws the first ResultsFormatError, its path shown as `${label}/${dir}/${file}`.
 */
export async function validateExperiment(storage: Storage, dir: string, files: readonly string[], label: string, limit = 8): Promise<void> {
  const published = publishedTasks(files)
  const todo: Array<[string, Exclude<Check, null>]> = []
  for (const rel of files) {
    const task = taskDirOf(rel)
    if (task !== null && !published.has(task)) continue
    const check = checkFor(rel)
    if (check !== null) todo.push([rel, check])
  }
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(limit, todo.length) }, async () => {
      while (next < todo.length) {
        const [rel, check] = todo[next++]
        await checkFile(storage, joinPath(dir, rel), check, `${label}/${dir}/${rel}`)
      }
    }),
  )
}
