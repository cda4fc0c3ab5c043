/**
 * A results tree as a static bundle's data (format.ts): read through any
 * Storage (a folder, this browser's IndexedDB, a zip), redacted with the
 * built-in rules unless the caller opts out, cut into chunks and handed to
 * `write` one file at a time (the CLI writes each to disk as it comes; the
 * browser collects them into a zip). Only JSON files are taken, never a
 * dot-file, a writer's unfinished `.wip`/`.old` task folder or an
 * experiment's `previous_NN` history: what the viewer reads, nothing else.
 */
import { dumpFile, joinPath, type Storage } from '../results'
import { BUILTIN_RULES, compileRules, type CompiledRules, type RedactionRule } from '../redaction'
import { chunkFileName, dataScriptText, type BundleChunk, type BundleMeta } from './format'
import { redactFileText, redactPath } from './redactFile'

export interface BundleOptions {
  readonly title: string
  readonly createdAt: Date
  readonly madeBy: string
  /** The built-in rules by default; `false` writes the results as they are (`--no-redact`). */
  readonly redact: boolean
  /** Only these experiment folders (experiments.json keeps their rows only); every folder of the root when absent. */
  readonly dirs?: readonly string[]
  /** Files put at the root as they are (a browser sweep's sweep.json), redacted like the rest. */
  readonly extraRootFiles?: Readonly<Record<string, string>>
  readonly rules?: readonly RedactionRule[]
}

export interface BundleStats {
  readonly experiments: number
  /** Results files taken into the bundle. */
  readonly files: number
  readonly chunks: number
  /** Bytes of the data scripts written (the viewer's own files not included). */
  readonly dataBytes: number
  readonly maskedByRule: ReadonlyMap<string, number>
  readonly masked: number
}

export type BundleWrite = (path: string, text: string) => Promise<void>

const TASK_SKIP = /\.(wip|old)$/
const HISTORY = /^previous_\d+$/
const isTaken = (name: string) => !name.startsWith('.')

class ChunkBuilder {
  readonly files: Array<[string, string]> = []
  readonly mounts: Array<[string, number]> = []
  constructor(readonly chunk: number) {}
}

/** Writes the bundle's data scripts under `data/`; returns what went in. */
export async function buildBundle(storage: Storage, options: BundleOptions, write: BundleWrite): Promise<BundleStats> {
  const rules = options.rules ?? BUILTIN_RULES
  const compiled: CompiledRules | null = options.redact ? compileRules(rules) : null
  const maskedByRule = new Map<string, number>()
  let fileCount = 0
  let dataBytes = 0
  let nextChunk = 1
  const take = (path: string, text: string): [string, string] => {
    fileCount++
    if (compiled === null) return [path, text]
    const r = redactFileText(text, compiled)
    for (const [id, n] of r.masked) maskedByRule.set(id, (maskedByRule.get(id) ?? 0) + n)
    return [redactPath(path, compiled, maskedByRule), r.text]
  }
  // Writes overlap (a few at a time): one after the other, a disk's latency adds up over thousands of chunks.
  const writing = new Set<Promise<void>>()
  let failed: { error: unknown } | null = null
  const emit = async (c: ChunkBuilder, meta?: BundleMeta) => {
    const payload: BundleChunk = { v: 1, chunk: c.chunk, ...(meta ? { meta } : {}), files: c.files, mounts: c.mounts }
    const text = dataScriptText(payload)
    dataBytes += text.length
    const p: Promise<void> = write(chunkFileName(c.chunk), text)
      .then(
        () => undefined,
        (error: unknown) => {
          failed ??= { error }
        },
      )
      .finally(() => writing.delete(p))
    writing.add(p)
    if (writing.size >= PARALLEL_WRITES) await Promise.race(writing)
    if (failed) throw failed.error
  }

  const index = new ChunkBuilder(0)
  const wanted = options.dirs ? new Set(options.dirs) : null
  const rootEntries = (await storage.list('')).filter((e) => isTaken(e.name))
  const dirs = rootEntries.filter((e) => e.kind === 'dir' && (wanted === null || wanted.has(e.name))).map((e) => e.name)

  for (const e of rootEntries) {
    if (e.kind !== 'file' || !e.name.endsWith('.json') || Object.hasOwn(options.extraRootFiles ?? {}, e.name)) continue
    let text = await storage.readText(e.name)
    if (e.name === 'experiments.json' && wanted !== null) text = onlyRows(text, wanted)
    if (text === '') continue
    index.files.push(take(e.name, text))
  }
  for (const [name, text] of Object.entries(options.extraRootFiles ?? {})) index.files.push(take(name, text))

  let experiments = 0
  // Experiments are read a few at a time and each one's files all at once (a storage read is a round trip,
  // 25,000 of them one after the other took ten times as long as the bytes), then numbered and written in order.
  for (let i = 0; i < dirs.length; i += PARALLEL_EXPERIMENTS) {
    const batch = await Promise.all(dirs.slice(i, i + PARALLEL_EXPERIMENTS).map((dir) => readExperimentFiles(storage, dir)))
    for (const read of batch) {
      const chunk = new ChunkBuilder(nextChunk++)
      for (const [path, text] of read.files) {
        const entry = take(path, text)
        // The manifest goes into the index: the sweep grid and a tree without experiments.json read them all at once.
        if (path === joinPath(read.dir, 'manifest.json')) index.files.push(entry)
        else chunk.files.push(entry)
      }
      // A task's trajectories (most of the bytes) load only when one of its runs is opened.
      const mounts: ChunkBuilder[] = []
      for (const group of read.trajectories) {
        const runs = new ChunkBuilder(nextChunk++)
        for (const [path, text] of group.files) runs.files.push(take(path, text))
        chunk.mounts.push([compiledPath(group.dir, compiled), runs.chunk])
        mounts.push(runs)
      }
      if (read.files.length === 0 && mounts.length === 0) continue
      experiments++
      index.mounts.push([compiledPath(read.dir, compiled), chunk.chunk])
      await emit(chunk)
      for (const m of mounts) await emit(m)
    }
  }

  const masked = [...maskedByRule.values()].reduce((a, b) => a + b, 0)
  const meta: BundleMeta = {
    title: options.title,
    createdAt: options.createdAt.toISOString(),
    madeBy: options.madeBy,
    experiments,
    files: fileCount,
    redaction: {
      applied: compiled !== null,
      rules: compiled === null ? [] : compiled.rules.map(({ rule }) => ({ id: rule.id, label: rule.label })),
      masked,
    },
  }
  await emit(index, meta)
  await Promise.all(writing)
  if (failed) throw (failed as { error: unknown }).error
  return { experiments, files: fileCount, chunks: nextChunk, dataBytes, maskedByRule, masked }
}

const PARALLEL_EXPERIMENTS = 8
const PARALLEL_WRITES = 16

interface ExperimentFiles {
  readonly dir: string
  /** Every file of the experiment but its trajectories, in walk order. */
  readonly files: ReadonlyArray<readonly [string, string]>
  /** Each task's trajectories folder and its files. */
  readonly trajectories: ReadonlyArray<{ readonly dir: string; readonly files: ReadonlyArray<readonly [string, string]> }>
}

/** An experiment folder's files: what it lists first, then every file read at once. */
async function readExperimentFiles(storage: Storage, dir: string): Promise<ExperimentFiles> {
  const paths: string[] = []
  const groups: Array<{ dir: string; paths: string[] }> = []
  const walk = async (path: string, depth: number): Promise<void> => {
    for (const e of await storage.list(path)) {
      if (!isTaken(e.name)) continue
      const child = joinPath(path, e.name)
      if (e.kind === 'file') {
        if (e.name.endsWith('.json')) paths.push(child)
        continue
      }
      if (depth === 0 && HISTORY.test(e.name)) continue
      if (depth === 1 && TASK_SKIP.test(e.name)) continue
      if (depth === 2 && e.name === 'trajectories') {
        const runs = (await storage.list(child)).filter((r) => r.kind === 'file' && isTaken(r.name) && r.name.endsWith('.json'))
        if (runs.length > 0) groups.push({ dir: child, paths: runs.map((r) => joinPath(child, r.name)) })
        continue
      }
      await walk(child, depth + 1)
    }
  }
  await walk(dir, 0)
  const read = (list: readonly string[]) => Promise.all(list.map(async (p) => [p, await storage.readText(p)] as const))
  return {
    dir,
    files: await read(paths),
    trajectories: await Promise.all(groups.map(async (g) => ({ dir: g.dir, files: await read(g.paths) }))),
  }
}

const compiledPath = (path: string, compiled: CompiledRules | null) => (compiled === null ? path : redactPath(path, compiled))

/** experiments.json with the rows of the chosen folders only ('' when none is left: readers then use the manifests). */
function onlyRows(text: string, wanted: ReadonlySet<string>): string {
  try {
    const index = JSON.parse(text) as { schema_version: unknown; experiments: Array<{ dir: string }> }
    const rows = index.experiments.filter((r) => wanted.has(r.dir))
    return rows.length > 0 ? dumpFile({ schema_version: index.schema_version, experiments: rows }) : ''
  } catch {
    return text
  }
}
