import { StorageNotFoundError, type Storage, type StorageEntry } from '../../core/results/storage'

export class ReadOnlyStorageError extends Error {
  constructor(what: string) {
    super(`${what} is read-only: results opened for viewing are never changed`)
    this.name = 'ReadOnlyStorageError'
  }
}

/**
 * The files of a results tree that was opened for viewing (a folder, a zip),
 * indexed by relative path. The tree's root is where experiments.json lives,
 * else the folder above the shallowest manifest.json (one experiment folder
 * opened on its own), else the common top folder; so the same reader works
 * whichever level the user picked.
 */
export class PathIndex<T> {
  private readonly files = new Map<string, T>()
  private readonly dirs = new Map<string, Map<string, 'file' | 'dir'>>()
  readonly root: string

  constructor(entries: Iterable<readonly [string, T]>) {
    const all: Array<readonly [string[], T]> = []
    for (const [raw, value] of entries) {
      const parts = raw
        .replaceAll('\\', '/')
        .split('/')
        .filter((p) => p !== '' && p !== '.')
      // ".." never leaves the tree: such an entry is simply not addressable.
      if (parts.length === 0 || parts.includes('..')) continue
      all.push([parts, value])
    }
    this.root = findRoot(all.map(([p]) => p))
    const prefix = this.root === '' ? [] : this.root.split('/')
    for (const [parts, value] of all) {
      if (!prefix.every((p, i) => parts[i] === p) || parts.length === prefix.length) continue
      const rel = parts.slice(prefix.length)
      this.files.set(rel.join('/'), value)
      for (let i = 0; i < rel.length; i++) {
        const dir = rel.slice(0, i).join('/')
        const children = this.dirs.get(dir) ?? new Map<string, 'file' | 'dir'>()
        children.set(rel[i], i === rel.length - 1 ? 'file' : 'dir')
        this.dirs.set(dir, children)
      }
    }
  }

  get(path: string): T | undefined {
    return this.files.get(normal(path))
  }

  list(dir: string): StorageEntry[] {
    const children = this.dirs.get(normal(dir))
    if (!children) return []
    return [...children].map(([name, kind]) => ({ name, kind })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  }

  isDir(path: string): boolean {
    return this.dirs.has(normal(path))
  }

  get size(): number {
    return this.files.size
  }
}

const normal = (path: string) =>
  path
    .split('/')
    .filter((p) => p !== '' && p !== '.')
    .join('/')

function findRoot(paths: readonly string[][]): string {
  const shallowest = (file: string) => {
    let best: string[] | null = null
    for (const p of paths) if (p[p.length - 1] === file && (best === null || p.length < best.length)) best = p
    return best
  }
  const index = shallowest('experiments.json')
  if (index) return index.slice(0, -1).join('/')
  const manifest = shallowest('manifest.json')
  if (manifest) return manifest.slice(0, -2).join('/')
  return ''
}

/** A Storage whose writes all fail: the base of the viewer's backends. */
export abstract class ReadOnlyStorage implements Storage {
  abstract readonly label: string
  abstract readText(path: string): Promise<string>
  abstract list(dir: string): Promise<StorageEntry[]>

  async exists(path: string): Promise<boolean> {
    try {
      await this.readText(path)
      return true
    } catch (error) {
      if (error instanceof StorageNotFoundError) return false
      throw error
    }
  }

  async writeTextAtomic(): Promise<void> {
    throw new ReadOnlyStorageError(this.label)
  }

  async remove(): Promise<void> {
    throw new ReadOnlyStorageError(this.label)
  }

  async linkOrCopy(): Promise<void> {
    throw new ReadOnlyStorageError(this.label)
  }
}
