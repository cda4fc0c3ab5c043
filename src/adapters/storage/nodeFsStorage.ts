/**
 * A results tree in a folder on disk. Writes are atomic: a unique temp file
 * beside the target, then rename, so a reader (or a crash) never sees half a
 * file. The only place besides the IndexedDB backend that touches storage.
 *
 * Writes go to one worker thread (fsWriteThread), which makes them with the
 * synchronous calls: a results file is small and lands in the page cache, so
 * its open, write, close and rename take microseconds, and through fs.promises
 * each of them was a thread-pool round trip (a sweep spent more CPU waking
 * threads than the kernel spent making files). On the thread, the kernel's
 * work runs beside the engine instead of inside it. Every other call waits
 * for the writes issued before it to the paths it touches (each path and
 * what is below it), so a read sees what was written, as if the writes were
 * made in place, and never waits for writes elsewhere. Reads stay
 * asynchronous (a viewer serves them).
 */
import { existsSync, promises as fs } from 'node:fs'
import { dirname, join, resolve, sep } from 'node:path'
import { StorageNotFoundError, joinPath, type BulkWriter, type Storage, type StorageEntry } from '../../core/results/storage'
import type { TrajectoryJob } from '../../core/results/trajectoryText'
import { fsWriteThread } from './fsWriteThread'

const PARENT_SEGMENT = /(^|\/)\.\.(\/|$)/

export class NodeFsStorage implements Storage, BulkWriter {
  /** Opts into the bulk path with its own writeTextUnpublished and writeTrajectoriesUnpublished. */
  readonly bulk: BulkWriter = this

  readonly root: string

  constructor(root: string) {
    this.root = resolve(root)
  }

  /** Waits for the writes issued before (on the thread) to these absolute paths or below them, so that what follows sees them. */
  private settled(...paths: string[]): Promise<void> | null {
    return fsWriteThread.writesBefore(paths)
  }

  /** Keeps every path inside the root: a `..` in a tree we read can never escape it. */
  private abs(path: string): string {
    const rel = joinPath(path)
    // Without a '..' segment a POSIX path cannot leave the root: no resolve() (it normalises the whole path again).
    if (sep === '/' && !PARENT_SEGMENT.test(rel))
      return rel === '' ? this.root : this.root.endsWith('/') ? this.root + rel : `${this.root}/${rel}`
    const full = resolve(this.root, rel)
    if (full !== this.root && !full.startsWith(this.root + sep)) throw new Error(`path escapes the results root: ${path}`)
    return full
  }

  async readText(path: string): Promise<string> {
    const file = this.abs(path)
    await this.settled(file)
    try {
      return await fs.readFile(file, 'utf8')
    } catch (error) {
      if (isNotFound(error)) throw new StorageNotFoundError(path)
      throw error
    }
  }

  async readBytes(path: string): Promise<Uint8Array> {
    const file = this.abs(path)
    await this.settled(file)
    try {
      return await fs.readFile(file)
    } catch (error) {
      if (isNotFound(error)) throw new StorageNotFoundError(path)
      throw error
    }
  }

  async writeTextAtomic(path: string, text: string): Promise<void> {
    return fsWriteThread.write(this.abs(path), text, true)
  }

  async writeBytesAtomic(path: string, bytes: Uint8Array): Promise<void> {
    return fsWriteThread.write(this.abs(path), bytes, true)
  }

  /** Straight into place: one rename fewer per file, for files that a later atomic write publishes. */
  async writeTextUnpublished(path: string, text: string): Promise<void> {
    return fsWriteThread.write(this.abs(path), text, false)
  }

  /** Printed on the writer thread while it keeps up: trajectories are most of a tree's bytes, and the engine keeps this thread. */
  async writeTrajectoriesUnpublished(paths: readonly string[], job: TrajectoryJob): Promise<void> {
    return fsWriteThread.writeTrajectories(
      paths.map((path) => this.abs(path)),
      job,
    )
  }

  /** Inode, size and modification time: our writes replace files by rename, so each one changes it. */
  async revision(path: string): Promise<string | null> {
    const file = this.abs(path)
    await this.settled(file)
    try {
      const s = await fs.stat(file, { bigint: true })
      return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}`
    } catch (error) {
      if (isNotFound(error)) return null
      throw error
    }
  }

  async list(dir: string): Promise<StorageEntry[]> {
    const folder = this.abs(dir)
    await this.settled(folder)
    try {
      const entries = await fs.readdir(folder, { withFileTypes: true })
      return entries
        .filter((e) => e.isDirectory() || e.isFile())
        .map((e): StorageEntry => ({ name: e.name, kind: e.isDirectory() ? 'dir' : 'file' }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    } catch (error) {
      if (isNotFound(error) || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return []
      throw error
    }
  }

  /** Synchronous once the writes before it are done: a check of a cached inode, cheaper than its thread-pool round trip. */
  async exists(path: string): Promise<boolean> {
    const file = this.abs(path)
    await this.settled(file)
    return existsSync(file)
  }

  async remove(path: string): Promise<void> {
    const file = this.abs(path)
    await this.settled(file)
    await fs.rm(file, { recursive: true, force: true })
  }

  /** A hard link shares the bytes; our writes replace files by rename, so the snapshot never changes. */
  async linkOrCopy(from: string, to: string): Promise<void> {
    const src = this.abs(from)
    const dst = this.abs(to)
    await this.settled(src, dst)
    await fs.mkdir(dirname(dst), { recursive: true })
    await fs.rm(dst, { force: true })
    try {
      await fs.link(src, dst)
    } catch {
      await fs.copyFile(src, dst)
    }
  }
}

function isNotFound(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === 'ENOENT'
}

/** For callers that hold an absolute folder path. */
export function nodeFsStorageAt(...parts: string[]): NodeFsStorage {
  return new NodeFsStorage(join(...parts))
}
