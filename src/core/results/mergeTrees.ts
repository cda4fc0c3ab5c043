/**
 * One results tree from several (the shards of a sweep): every experiment
 * folder, and experiments.json with every finished experiment's row.
 *
 * Planned first, written second: every input is read and checked before the
 * output is touched, so a refusal leaves nothing half-merged. An experiment
 * found in several inputs is merged once if the copies agree on what was
 * measured (the experiment's parameters and every task's outcome); the copy
 * kept is chosen by content, never by the order of the inputs, so merging is
 * order-independent, and merging a merged tree again with any of its parts
 * changes nothing. Copies that disagree are refused, naming the experiment,
 * the task and the field.
 */
import { z } from 'zod'
import { ManifestFile, SCHEMA_VERSION } from './format'
import { sumUnpriced } from './cost'
import { readJsonFile, readThreatModelName, readUnpriced, ResultsFormatError } from './reader'
import { joinPath, StorageNotFoundError, type Storage } from './storage'
import { validateExperiment } from './validateExperiment'
import { completeIndexRow, dumpFile } from './writer'

export interface TreeSource {
  /** Where it came from, for messages (a folder path). */
  readonly label: string
  readonly storage: Storage
}

/** Copies one file into the output; the default reads and writes text, a disk adapter can hard-link. */
export type FileCopier = (from: Storage, path: string, to: Storage, toPath: string) => Promise<void>

export const copyText: FileCopier = async (from, path, to, toPath) => {
  await to.writeTextAtomic(toPath, await from.readText(path))
}

export class MergeConflictError extends Error {
  readonly experiment: string
  readonly field: string
  constructor(experiment: string, field: string, message: string) {
    super(message)
    this.name = 'MergeConflictError'
    this.experiment = experiment
    this.field = field
  }
}

type Manifest = z.infer<typeof ManifestFile>
type Row = { dir: string; [key: string]: unknown }

const LooseIndexFile = z.object({ experiments: z.array(z.looseObject({ dir: z.string() })) })

export interface ExperimentCopy {
  readonly source: TreeSource
  readonly dir: string
  readonly manifest: Manifest
  /** Compared byte for byte to choose among agreeing copies. */
  readonly manifestText: string
  /** Its experiments.json row (or the one its writer would have written), when the experiment finished. */
  readonly row: Row | null
  /** Its files (paths from the storage's root), every results file among them checked as its reader reads it. */
  readonly files: readonly string[]
}

export interface PlannedExperiment {
  readonly dir: string
  readonly chosen: ExperimentCopy
  /** Every input that holds it, chosen one included. */
  readonly foundIn: readonly string[]
}

export interface TreeMergePlan {
  /** Sorted by folder. */
  readonly experiments: readonly PlannedExperiment[]
  /** Things worth saying that do not stop the merge. */
  readonly notes: readonly string[]
}

/** The task fields two copies of one experiment must agree on (timings and ids may differ). */
const TASK_FIELDS = ['goal_hash', 'status', 'success', 'best_score', 'stop_reason', 'n_runs', 'cost_usd', 'has_error'] as const

const show = (v: unknown) => (typeof v === 'string' ? `'${v}'` : JSON.stringify(v))

/** Where two copies of one experiment disagree, as [field, sentence], or null when they agree. */
export function disagreement(a: ExperimentCopy, b: ExperimentCopy): [string, string] | null {
  const la = a.source.label
  const lb = b.source.label
  if (a.manifest.status !== b.manifest.status) {
    return ['status', `it is ${a.manifest.status.replace('_', ' ')} in ${la} but ${b.manifest.status.replace('_', ' ')} in ${lb}`]
  }
  const ea = a.manifest.experiment as Record<string, unknown>
  const eb = b.manifest.experiment as Record<string, unknown>
  for (const key of new Set([...Object.keys(ea), ...Object.keys(eb)])) {
    if (JSON.stringify(ea[key]) !== JSON.stringify(eb[key])) {
      return [`experiment.${key}`, `its ${key} is ${show(ea[key])} in ${la} but ${show(eb[key])} in ${lb}`]
    }
  }
  const ta = new Map(a.manifest.tasks.map((t) => [t.index, t]))
  const tb = new Map(b.manifest.tasks.map((t) => [t.index, t]))
  for (const index of [...new Set([...ta.keys(), ...tb.keys()])].sort((x, y) => x - y)) {
    const x = ta.get(index)
    const y = tb.get(index)
    if (!x || !y) return [`tasks[${index}]`, `task ${index} is in ${x ? la : lb} but not in ${x ? lb : la}`]
    for (const f of TASK_FIELDS) {
      if (JSON.stringify(x[f]) !== JSON.stringify(y[f])) {
        return [`tasks[${index}].${f}`, `task ${index}'s ${f} is ${show(x[f])} in ${la} but ${show(y[f])} in ${lb}`]
      }
    }
  }
  return null
}

/**
 * Copies agreeing on every outcome: the one kept does not depend on the order
 * the inputs came in. Between identical copies, the one already in the output
 * stays (nothing to copy), else the first by label.
 */
function preferred(a: ExperimentCopy, b: ExperimentCopy, inPlace: Storage | undefined): ExperimentCopy {
  if (a.manifestText !== b.manifestText) return a.manifestText < b.manifestText ? a : b
  if (inPlace !== undefined && (a.source.storage === inPlace) !== (b.source.storage === inPlace))
    return a.source.storage === inPlace ? a : b
  return a.source.label <= b.source.label ? a : b
}

async function readRows(source: TreeSource): Promise<Map<string, Row>> {
  let index: z.infer<typeof LooseIndexFile>
  try {
    index = await readJsonFile(source.storage, 'experiments.json', LooseIndexFile)
  } catch (e) {
    if (e instanceof StorageNotFoundError) return new Map()
    if (e instanceof ResultsFormatError)
      throw new ResultsFormatError(`${source.label}/experiments.json`, e.message.replace(/^experiments\.json: /, ''))
    throw e
  }
  return new Map(index.experiments.map((r) => [r.dir, r]))
}

async function readCopies(source: TreeSource, notes: string[]): Promise<ExperimentCopy[]> {
  const rows = await readRows(source)
  const out: ExperimentCopy[] = []
  for (const entry of await source.storage.list('')) {
    if (entry.kind !== 'dir') continue
    let text: string
    try {
      text = await source.storage.readText(joinPath(entry.name, 'manifest.json'))
    } catch (e) {
      // Not an experiment (or one whose copy was cut short before its manifest): not merged.
      if (e instanceof StorageNotFoundError) continue
      throw e
    }
    // Every file as its reader would take it, before anything is written: damage is named, never copied.
    const files = await filesUnder(source.storage, entry.name)
    await validateExperiment(
      source.storage,
      entry.name,
      files.map((f) => f.slice(entry.name.length + 1)),
      source.label,
    )
    const manifest = ManifestFile.parse(JSON.parse(text))
    const row = rows.get(entry.name) ?? (await recoveredRow(source.storage, entry.name, manifest))
    rows.delete(entry.name)
    out.push({ source, dir: entry.name, manifest, manifestText: text, row, files })
  }
  for (const dir of rows.keys()) notes.push(`${source.label}/experiments.json lists ${dir}, whose folder is missing: left out`)
  return out
}

/** `inPlace`: the output, when it is also one of the sources (an earlier merge). */
export async function planTreeMerge(sources: readonly TreeSource[], inPlace?: Storage): Promise<TreeMergePlan> {
  const notes: string[] = []
  const byDir = new Map<string, ExperimentCopy[]>()
  for (const source of sources) {
    for (const copy of await readCopies(source, notes)) byDir.set(copy.dir, [...(byDir.get(copy.dir) ?? []), copy])
  }
  const experiments: PlannedExperiment[] = []
  const reruns: string[] = []
  for (const dir of [...byDir.keys()].sort()) {
    const copies = byDir.get(dir)!
    let chosen = copies[0]
    for (const other of copies.slice(1)) {
      const diff = disagreement(chosen, other)
      if (diff !== null) {
        throw new MergeConflictError(
          dir,
          diff[0],
          `${chosen.source.label} and ${other.source.label} disagree about experiment ${dir}: ${diff[1]}. ` +
            'Each threat model should be run by one shard: merge one copy (drop the other input, or rerun that shard into a fresh folder)',
        )
      }
      chosen = preferred(chosen, other, inPlace)
    }
    const labels = [...new Set(copies.map((c) => c.source.label))].sort()
    // The same copy twice (an earlier merge, an artifact downloaded twice) is nothing to say; two runs that agree are.
    if (new Set(copies.map((c) => c.manifestText)).size > 1) reruns.push(`${dir} (in ${labels.join(' and ')})`)
    experiments.push({ dir, chosen, foundIn: labels })
  }
  if (reruns.length > 0) {
    notes.push(
      `${reruns.length} experiment(s) were run more than once with the same outcomes, and are merged once: ` +
        `${reruns.slice(0, 3).join(', ')}${reruns.length > 3 ? ` and ${reruns.length - 3} more` : ''}`,
    )
  }
  return { experiments, notes }
}

/**
 * The row the writer would have added for a finished experiment whose run was
 * stopped between its result.json and experiments.json, its redscope extras
 * (the saved name, the unpriced calls) read back from the folder; none for one
 * in progress.
 */
async function recoveredRow(storage: Storage, dir: string, m: Manifest): Promise<Row | null> {
  if (m.status !== 'complete') return null
  return completeIndexRow({
    dir,
    slug: m.experiment.slug,
    hash: m.experiment.hash,
    experiment: m.experiment,
    summary: m.summary,
    completedAt: m.timing.completed_at,
    threatModelName: await readThreatModelName(storage, dir),
    unpriced: sumUnpriced((await readUnpriced(storage, dir)).values()),
  })
}

async function filesUnder(storage: Storage, dir: string): Promise<string[]> {
  const out: string[] = []
  const stack = [dir]
  while (stack.length > 0) {
    const d = stack.pop()!
    for (const e of await storage.list(d)) {
      const p = joinPath(d, e.name)
      if (e.kind === 'dir') stack.push(p)
      // An atomic write cut short by a kill leaves its temp file: never part of a tree.
      else if (!e.name.endsWith('.tmp')) out.push(p)
    }
  }
  return out.sort()
}

/** Runs `work` over items, `limit` at a time. */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++])
    }),
  )
}

export interface TreeMergeWritten {
  /** Experiments copied in (those already in the output as chosen are left as they are). */
  readonly copied: number
  readonly files: number
}

/**
 * Writes a plan into `out`. An experiment's manifest.json is copied last, so
 * a merge cut short leaves folders no reader takes for an experiment, and the
 * same merge run again completes it. experiments.json is written after every
 * folder.
 */
export async function writeTreeMerge(plan: TreeMergePlan, out: Storage, copy: FileCopier = copyText): Promise<TreeMergeWritten> {
  let copied = 0
  let files = 0
  await eachLimited(plan.experiments, 4, async ({ dir, chosen }) => {
    if (chosen.source.storage === out) return
    const from = chosen.source.storage
    await out.remove(dir)
    const paths = chosen.files
    const manifest = joinPath(dir, 'manifest.json')
    await eachLimited(
      paths.filter((p) => p !== manifest),
      8,
      (p) => copy(from, p, out, p),
    )
    await copy(from, manifest, out, manifest)
    copied += 1
    files += paths.length
  })
  const rows = plan.experiments.flatMap((e) => {
    return e.chosen.row === null ? [] : [e.chosen.row]
  })
  await out.writeTextAtomic('experiments.json', dumpFile({ schema_version: SCHEMA_VERSION, experiments: rows }))
  return { copied, files }
}
