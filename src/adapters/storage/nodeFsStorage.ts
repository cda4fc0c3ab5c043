/**
 * A results tree in a folder on disk. Writes are atomic: a unique temp file
 * beside the target, then rename, so a reader (or a crash) never sees half a
 * file. The only place besides the IndexedDB backend that touches storage.
 */
import { promises as fs } from 'node:fs'
import { dirname, join, resolve, sep } from 'node:path'
import { StorageNotFoundError, joinPath, type Storage, type StorageEntry } from '../../core/results/storage'

let counter = 0

export class NodeFsStorage implements Storage {
  readonly root: string
  /**
   * Folders this storage made or is making, so that a write does not ask for its folder again (remove() forgets them).
   * The promise, not a flag: a task's files are written 16 at a time, and each one that found no flag yet ran its
   * own recursive mkdir of the same folder (a mkdir, an EEXIST and a stat each, every one a thread-pool round trip).
   */
  private readonly folders = new Map<string, Promise<void>>()

  constructor(root: string) {
    this.root = resolve(root)
  }

  /** Keeps every path inside the root: a `..` in a tree we read can never escape it. */
  private abs(path: string): string {
    const full = resolve(this.root, joinPath(path))
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

  writeTextAtomic(path: string, text: string): Promise<void> {
    return this.writeAtomic(path, text)
  }

  writeBytesAtomic(path: string, bytes: Uint8Array): Promise<void> {
    return this.writeAtomic(path, bytes)
  }

  /** Straight into place: one rename fewer per file, for files that a later atomic write publishes. */
  async writeTextUnpublished(path: string, text: string): Promise<void> {
    await this.writeInFolder(this.abs(path), text)
  }

  private async writeAtomic(path: string, data: string | Uint8Array): Promise<void> {
    const full = this.abs(path)
    const tmp = `${full}.${process.pid}.${++counter}.tmp`
    try {
      await this.writeInFolder(tmp, data)
      await fs.rename(tmp, full)
    } catch (error) {
      await fs.rm(tmp, { force: true })
      throw error
    }
  }

  /** Writes a file, making its folder first when this storage has not seen it yet. */
  private async writeInFolder(file: string, data: string | Uint8Array): Promise<void> {
    const folder = dirname(file)
    await this.folderMade(folder)
    try {
      await fs.writeFile(file, data)
    } catch (error) {
      // The folder went away behind our back (removed by hand, by another process): make it again, once.
      if (!isNotFound(error)) throw error
      this.forget(folder)
      await fs.mkdir(folder, { recursive: true })
      this.folders.set(folder, Promise.resolve())
      await fs.writeFile(file, data)
    }
  }

  /**
   * One mkdir per folder however many writes wait for it: the parent first (itself once), then this one alone, so a
   * task folder costs one system call and no EEXIST/stat. The root and anything above it are made recursively.
   * A failed one is forgotten, so that the next write tries again.
   */
  private folderMade(folder: string): Promise<void> {
    let made = this.folders.get(folder)
    if (made === undefined) {
      const parent = dirname(folder)
      const inside = folder.startsWith(this.root + sep) && parent !== folder
      made = (inside ? this.folderMade(parent).then(() => mkdirOne(folder)) : fs.mkdir(folder, { recursive: true }).then(() => {}))
        .catch((error: unknown) => {
          if (this.folders.get(folder) === made) this.folders.delete(folder)
          throw error
        })
      this.folders.set(folder, made)
    }
    return made
  }

  /** Forgets a folder and everything under it (removed, or gone behind our back). */
  private forget(full: string): void {
    for (const folder of this.folders.keys()) if (folder === full || folder.startsWith(full + sep)) this.folders.delete(folder)
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

  async exists(path: string): Promise<boolean> {
    try {
      await fs.access(this.abs(path))
      return true
    } catch {
      return false
    }
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
    this.folders.set(dirname(dst), Promise.resolve())
    await fs.rm(dst, { force: true })
    try {
      await fs.link(this.abs(from), dst)
    } catch {
      await fs.copyFile(this.abs(from), dst)
    }
  }
}

/** A folder whose parent this storage made; one that is already there is fine; a parent removed behind our back is made again. */
async function mkdirOne(folder: string): Promise<void> {
  try {
    await fs.mkdir(folder)
  } catch (error) {
    if ((error as NodeJS.ErrnoException)?.code === 'EEXIST') return
    if (!isNotFound(error)) throw error
    await fs.mkdir(folder, { recursive: true })
  }
}

function isNotFound(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === 'ENOENT'
}

/** For callers that hold an absolute folder path. */
export function nodeFsStorageAt(...parts: string[]): NodeFsStorage {
  return new NodeFsStorage(join(...parts))
}
