/**
 * A results tree in a folder on disk. Writes are atomic: a unique temp file
 * beside the target, then rename, so a reader (or a crash) never sees half a
 * file. The only place besides the IndexedDB backend that touches storage.
 *
 * Writes use the synchronous calls. A results file is small and lands in the
 * page cache, so its open, write, close and rename take microseconds; through
 * fs.promises each of them was a thread-pool round trip, and a sweep writing
 * ~30 files per experiment spent more CPU waking threads (futex) than the
 * kernel spent making files. Reads stay asynchronous (a viewer serves them).
 */
import { existsSync, mkdirSync, promises as fs, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve, sep } from 'node:path'
import { StorageNotFoundError, joinPath, type Storage, type StorageEntry } from '../../core/results/storage'

let counter = 0
const PARENT_SEGMENT = /(^|\/)\.\.(\/|$)/

export class NodeFsStorage implements Storage {
  readonly root: string
  /** Folders this storage made, so that a write does not ask for its folder again (remove() forgets them). */
  private readonly folders = new Set<string>()

  constructor(root: string) {
    this.root = resolve(root)
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
    try {
      return await fs.readFile(this.abs(path), 'utf8')
    } catch (error) {
      if (isNotFound(error)) throw new StorageNotFoundError(path)
      throw error
    }
  }

  async writeTextAtomic(path: string, text: string): Promise<void> {
    this.writeAtomic(path, text)
  }

  async writeBytesAtomic(path: string, bytes: Uint8Array): Promise<void> {
    this.writeAtomic(path, bytes)
  }

  /** Straight into place: one rename fewer per file, for files that a later atomic write publishes. */
  async writeTextUnpublished(path: string, text: string): Promise<void> {
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
    try {
      const s = await fs.stat(this.abs(path), { bigint: true })
      return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}`
    } catch (error) {
      if (isNotFound(error)) return null
      throw error
    }
  }

  async list(dir: string): Promise<StorageEntry[]> {
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

  /** Synchronous, as the writes: a check of a cached inode, cheaper than its thread-pool round trip. */
  async exists(path: string): Promise<boolean> {
    return existsSync(this.abs(path))
  }

  async remove(path: string): Promise<void> {
    const full = this.abs(path)
    this.forget(full)
    await fs.rm(full, { recursive: true, force: true })
  }

  /** A hard link shares the bytes; our writes replace files by rename, so the snapshot never changes. */
  async linkOrCopy(from: string, to: string): Promise<void> {
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
