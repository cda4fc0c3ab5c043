/**
 * A sweep's results tree in its two parts, each measured alone on one thread, for row 6 of the goals bench: the
 * texts (every file printed, kept nowhere) and the files (the same writes made again from ready bytes). A sweep
 * writing trees runs the two side by side on two threads; these show how much of its time each part takes even with
 * nothing else in the way, so that a row-6 figure can be read against what the tree itself costs.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { StorageNotFoundError, type BulkWriter, type Storage, type StorageEntry } from '../src/core/results/storage'
import { trajectoryTexts, type TrajectoryJob } from '../src/core/results/trajectoryText'

/** One write as the session issued it: atomic ones are published by rename, as NodeFsStorage's thread does. */
export interface RecordedWrite {
  readonly path: string
  readonly atomic: boolean
  readonly bytes: Uint8Array
}

const encoder = new TextEncoder()

/**
 * Takes every write of a session and keeps none of it (or, recording, keeps each as bytes to make again): trajectory
 * jobs are printed here, on the calling thread. It reads as an empty folder, except that a file written keeps a
 * revision, so that the experiments index does not re-read it at every row as a file changed elsewhere.
 */
export class DiscardingStorage implements Storage, BulkWriter {
  readonly bulk: BulkWriter = this
  readonly writes: RecordedWrite[] = []
  private readonly revisions = new Map<string, number>()

  constructor(private readonly record = false) {}

  private keep(path: string, text: string, atomic: boolean): void {
    this.revisions.set(path, (this.revisions.get(path) ?? 0) + 1)
    if (this.record) this.writes.push({ path, atomic, bytes: encoder.encode(text) })
  }

  async writeTextAtomic(path: string, text: string): Promise<void> {
    this.keep(path, text, true)
  }

  async writeTextUnpublished(path: string, text: string): Promise<void> {
    this.keep(path, text, false)
  }

  async writeTrajectoriesUnpublished(paths: readonly string[], job: TrajectoryJob): Promise<void> {
    trajectoryTexts(job).forEach((text, i) => this.keep(paths[i], text, false))
  }

  async revision(path: string): Promise<string | null> {
    const n = this.revisions.get(path)
    return n === undefined ? null : String(n)
  }

  async readText(path: string): Promise<string> {
    throw new StorageNotFoundError(path)
  }

  async list(): Promise<StorageEntry[]> {
    return []
  }

  async exists(): Promise<boolean> {
    return false
  }

  async remove(): Promise<void> {}

  async linkOrCopy(): Promise<void> {}
}

/**
 * Makes `writes` under `root` (which must not exist yet) with the calls the writer thread makes: folders parent first,
 * each once; an atomic write to a temp file beside its target, then rename. Returns wall and CPU time (ms).
 */
export function replayWrites(root: string, writes: readonly RecordedWrite[]): { ms: number; cpuMs: number } {
  const made = new Set<string>()
  const makeFolder = (folder: string): void => {
    if (made.has(folder)) return
    if (folder !== root) makeFolder(dirname(folder))
    mkdirSync(folder)
    made.add(folder)
  }
  const cpuBefore = process.cpuUsage()
  const start = performance.now()
  let n = 0
  for (const w of writes) {
    const file = join(root, w.path)
    makeFolder(dirname(file))
    if (!w.atomic) writeFileSync(file, w.bytes)
    else {
      const tmp = `${file}.t${++n}.tmp`
      writeFileSync(tmp, w.bytes)
      renameSync(tmp, file)
    }
  }
  const ms = performance.now() - start
  const cpu = process.cpuUsage(cpuBefore)
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000 }
}
