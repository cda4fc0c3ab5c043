/**
 * Where a results tree lives. Paths are relative, `/`-separated, with '' for
 * the root. Two backends: a folder on disk (Node) and IndexedDB (browser),
 * both in src/adapters/storage; an in-memory one here for tests and previews.
 */
import type { TrajectoryJob } from './trajectoryText'

export interface StorageEntry {
  readonly name: string
  readonly kind: 'file' | 'dir'
}

/**
 * The port every backend implements: reads, atomic writes, listing, removal, snapshot links. That is enough for
 * every writer and reader; a backend that can write a task folder faster also offers `bulk` (see BulkWriter).
 */
export interface Storage {
  /** Throws StorageNotFoundError when there is no such file. */
  readText(path: string): Promise<string>
  /** Creates parent folders; a reader sees the old text or the new, never a mix. */
  writeTextAtomic(path: string, text: string): Promise<void>
  /** Immediate children, sorted by name; empty when the folder does not exist. */
  list(dir: string): Promise<StorageEntry[]>
  exists(path: string): Promise<boolean>
  /** Removes a file or a whole folder; no error when absent. */
  remove(path: string): Promise<void>
  /** Shares a file into a snapshot (hard link where possible, else a copy). */
  linkOrCopy(from: string, to: string): Promise<void>
  /**
   * Optional: the bulk path for a task folder's files (src/core/engine/README.md, "performance rules"). A writer
   * reads it once, when it starts, not per file. Without it, every file is written with writeTextAtomic.
   */
  readonly bulk?: BulkWriter

  // Optional capabilities of the experiments index and the validator, each with a plain fallback where it is used.
  /**
   * Optional: the file's bytes, for a reader that must refuse what is not UTF-8 (a merge) where readText
   * would turn a bad byte into U+FFFD. Throws StorageNotFoundError as readText does.
   */
  readBytes?(path: string): Promise<Uint8Array>
  /**
   * Optional: a token that changes whenever the file is replaced, null when
   * it is absent. A writer that keeps a file in memory (experiments.json)
   * asks it to notice another writer without reading the file; without it,
   * the writer reads the file back and compares.
   */
  revision?(path: string): Promise<string | null>
  /**
   * Optional: writeTextAtomic for text already encoded as UTF-8 (a large file assembled from encoded pieces).
   * The storage may take the bytes over (a worker thread receives their buffer without a copy, which detaches it):
   * pass bytes the caller no longer needs.
   */
  writeBytesAtomic?(path: string, bytes: Uint8Array): Promise<void>
}

/**
 * The bulk path a storage opts into whole: a task folder's files, written without the atomic rename (nobody reads
 * the folder before its task.json, which is written last, atomically), its trajectories printed by the storage
 * (on another thread if it writes there: they are most of a results tree's bytes).
 */
export interface BulkWriter {
  /** A plain write, for files no reader looks at until a later atomic write publishes them. */
  writeTextUnpublished(path: string, text: string): Promise<void>
  /**
   * writeTextUnpublished for a task's trajectory files, printed from their job (`trajectoryTexts`, the i-th text
   * to `paths[i]`). The storage may take the job over: pass one the caller no longer needs.
   */
  writeTrajectoriesUnpublished(paths: readonly string[], job: TrajectoryJob): Promise<void>
}

export class StorageNotFoundError extends Error {
  readonly path: string
  constructor(path: string) {
    super(`no such file: ${path}`)
    this.name = 'StorageNotFoundError'
    this.path = path
  }
}

/** Joins path pieces with '/', dropping empty and '.' segments ('a//b/./c' is 'a/b/c'). */
export function joinPath(...parts: string[]): string {
  // A loop rather than split/flatMap/filter: a sweep joins a path for every file it writes (and a storage joins it again).
  let out = ''
  for (const part of parts) {
    if (isClean(part)) {
      out = out === '' ? part : `${out}/${part}`
      continue
    }
    let start = 0
    for (let i = 0; i <= part.length; i++) {
      if (i < part.length && part.charCodeAt(i) !== 47 /* '/' */) continue
      const segment = i - start
      if (segment > 0 && !(segment === 1 && part.charCodeAt(start) === 46 /* '.' */)) {
        out = out === '' ? part.slice(start, i) : `${out}/${part.slice(start, i)}`
      }
      start = i + 1
    }
  }
  return out
}

/** Has the piece no empty or '.' segment? Then it is taken whole: the common case, asked of the engine's own string search. */
function isClean(part: string): boolean {
  return (
    part !== '' &&
    part !== '.' &&
    part.charCodeAt(0) !== 47 &&
    part.charCodeAt(part.length - 1) !== 47 &&
    !part.includes('//') &&
    !part.startsWith('./') &&
    !part.endsWith('/.') &&
    !part.includes('/./')
  )
}

export function parentOf(path: string): string {
  const i = path.lastIndexOf('/')
  return i < 0 ? '' : path.slice(0, i)
}

/** Copies a folder tree into another path, file by file (the previous_NN snapshot). */
export async function linkTree(storage: Storage, from: string, to: string): Promise<void> {
  for (const entry of await storage.list(from)) {
    const src = joinPath(from, entry.name)
    const dst = joinPath(to, entry.name)
    if (entry.kind === 'dir') await linkTree(storage, src, dst)
    else await storage.linkOrCopy(src, dst)
  }
}
