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
  /** Folders this storage made or found, so that a write does not ask for its folder again (remove() forgets them). */
  private readonly folders = new Set<string>()

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
    if (!this.folders.has(folder)) {
      await fs.mkdir(folder, { recursive: true })
      this.folders.add(folder)
    }
    try {
      await fs.writeFile(file, data)
    } catch (error) {
      // The folder went away behind our back (removed by hand, by another process): make it again, once.
      if (!isNotFound(error)) throw error
      this.folders.delete(folder)
      await fs.mkdir(folder, { recursive: true })
      this.folders.add(folder)
      await fs.writeFile(file, data)
    }
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
    for (const folder of this.folders) if (folder === full || folder.startsWith(full + sep)) this.folders.delete(folder)
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

function isNotFound(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === 'ENOENT'
}

/** For callers that hold an absolute folder path. */
export function nodeFsStorageAt(...parts: string[]): NodeFsStorage {
  return new NodeFsStorage(join(...parts))
}
