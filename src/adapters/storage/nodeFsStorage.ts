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
 * for the writes issued before it, so a read sees what was written, as if the
 * writes were made in place. `{ writes: 'inline' }` makes them on the calling
 * thread instead. Reads stay asynchronous (a viewer serves them).
 */
import { existsSync, mkdirSync, promises as fs, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve, sep } from 'node:path'
import { StorageNotFoundError, joinPath, type Storage, type StorageEntry } from '../../core/results/storage'
import { fsWriteThread } from './fsWriteThread'

let counter = 0
const PARENT_SEGMENT = /(^|\/)\.\.(\/|$)/

export class NodeFsStorage implements Storage {
  readonly root: string
  /** Folders this storage made, so that a write does not ask for its folder again (remove() forgets them). */
  private readonly folders = new Set<string>()

  private readonly threaded: boolean

  constructor(root: string, options: { writes?: 'thread' | 'inline' } = {}) {
    this.root = resolve(root)
    this.threaded = (options.writes ?? 'thread') === 'thread'
  }

  /** Waits for the writes issued before (on the thread), so that what follows sees them. */
  private settled(): Promise<void> | null {
    return this.threaded ? fsWriteThread.writesBefore() : null
  }

  /** Keeps every path inside the root: a `..` in a tree we read can never escape it. */
  private abs(path: string): string {
    const rel = joinPath(path)
    // Without a '..' segment a POSIX path cannot leave the root: no resolve() (it normalises the whole path again).
    if (sep === '/' && !PARENT_SEGMENT.test(rel)) return rel === '' ? this.root : this.root.endsWith('/') ? this.root + rel : `${this.root}/${rel}`
    const full = resolve(this.root, rel)
    if (full !== this.root && !full.startsWith(this.root + sep)) throw new Error(`path escapes the results root: ${path}`)
    return full
  }

  async readText(path: string): Promise<string> {
    await this.settled()
    try {
      return await fs.readFile(this.abs(path), 'utf8')
    } catch (error) {
      if (isNotFound(error)) throw new StorageNotFoundError(path)
      throw error
    }
  }

  async writeTextAtomic(path: string, text: string): Promise<void> {
    if (this.threaded) return fsWriteThread.write(this.abs(path), text, true)
    this.writeAtomic(path, text)
  }

  async writeBytesAtomic(path: string, bytes: Uint8Array): Promise<void> {
    if (this.threaded) return fsWriteThread.write(this.abs(path), bytes, true)
    this.writeAtomic(path, bytes)
  }

  /** Straight into place: one rename fewer per file, for files that a later atomic write publishes. */
  async writeTextUnpublished(path: string, text: string): Promise<void> {
    if (this.threaded) return fsWriteThread.write(this.abs(path), text, false)
    this.writeInFolder(this.abs(path), text)
  }

  private writeAtomic(path: string, data: string | Uint8Array): void {
    const full = this.abs(path)
    const tmp = `${full}.${process.pid}.${++counter}.tmp`
    try {
      this.writeInFolder(tmp, data)
      renameSync(tmp, full)
    } catch (error) {
      rmSync(tmp, { force: true })
      throw error
    }
  }

  /** Writes a file, making its folder first when this storage has not seen it yet. */
  private writeInFolder(file: string, data: string | Uint8Array): void {
    const folder = dirname(file)
    this.folderMade(folder)
    try {
      writeFileSync(file, data)
    } catch (error) {
      // The folder went away behind our back (removed by hand, by another process): make it again, once.
      if (!isNotFound(error)) throw error
      this.forget(folder)
      mkdirSync(folder, { recursive: true })
      this.folders.add(folder)
      writeFileSync(file, data)
    }
  }

  /**
   * One mkdir per folder: the parent first (itself once), then this one alone, so a task folder costs one system
   * call and no EEXIST/stat. The root and anything above it are made recursively.
   */
  private folderMade(folder: string): void {
    if (this.folders.has(folder)) return
    const parent = dirname(folder)
    if (folder.startsWith(this.root + sep) && parent !== folder) {
      this.folderMade(parent)
      mkdirOne(folder)
    } else {
      mkdirSync(folder, { recursive: true })
    }
    this.folders.add(folder)
  }

  /** Forgets a folder and everything under it (removed, or gone behind our back). */
  private forget(full: string): void {
    for (const folder of this.folders) if (folder === full || folder.startsWith(full + sep)) this.folders.delete(folder)
  }

  /** Inode, size and modification time: our writes replace files by rename, so each one changes it. */
  async revision(path: string): Promise<string | null> {
    await this.settled()
    try {
      const s = await fs.stat(this.abs(path), { bigint: true })
      return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}`
    } catch (error) {
      if (isNotFound(error)) return null
      throw error
    }
  }

  async list(dir: string): Promise<StorageEntry[]> {
    await this.settled()
    try {
      const entries = await fs.readdir(this.abs(dir), { withFileTypes: true })
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
    await this.settled()
    return existsSync(this.abs(path))
  }

  async remove(path: string): Promise<void> {
    await this.settled()
    const full = this.abs(path)
    this.forget(full)
    await fs.rm(full, { recursive: true, force: true })
  }

  /** A hard link shares the bytes; our writes replace files by rename, so the snapshot never changes. */
  async linkOrCopy(from: string, to: string): Promise<void> {
    await this.settled()
    const dst = this.abs(to)
    await fs.mkdir(dirname(dst), { recursive: true })
    this.folders.add(dirname(dst))
    await fs.rm(dst, { force: true })
    try {
      await fs.link(this.abs(from), dst)
    } catch {
      await fs.copyFile(this.abs(from), dst)
    }
  }
}

/** A folder whose parent this storage made; one that is already there is fine; a parent removed behind our back is made again. */
function mkdirOne(folder: string): void {
  try {
    mkdirSync(folder)
  } catch (error) {
    if ((error as NodeJS.ErrnoException)?.code === 'EEXIST') return
    if (!isNotFound(error)) throw error
    mkdirSync(folder, { recursive: true })
  }
}

function isNotFound(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === 'ENOENT'
}

/** For callers that hold an absolute folder path. */
export function nodeFsStorageAt(...parts: string[]): NodeFsStorage {
  return new NodeFsStorage(join(...parts))
}
