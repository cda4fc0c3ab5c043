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

  async writeTextAtomic(path: string, text: string): Promise<void> {
    const full = this.abs(path)
    await fs.mkdir(dirname(full), { recursive: true })
    const tmp = `${full}.${process.pid}.${++counter}.tmp`
    try {
      await fs.writeFile(tmp, text, 'utf8')
      await fs.rename(tmp, full)
    } catch (error) {
      await fs.rm(tmp, { force: true })
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
    await fs.rm(this.abs(path), { recursive: true, force: true })
  }

  /** A hard link shares the bytes; our writes replace files by rename, so the snapshot never changes. */
  async linkOrCopy(from: string, to: string): Promise<void> {
    const dst = this.abs(to)
    await fs.mkdir(dirname(dst), { recursive: true })
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
