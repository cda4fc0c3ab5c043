/**
 * A static bundle's results tree (src/core/bundle), read-only: the index
 * chunk is at hand when the page opens; any other chunk is asked of the
 * loader the first time a path inside one of its folders is read or listed
 * (the viewer's loader adds a <script>; tests read the file), and kept.
 */
import { parseChunk, type BundleChunk, type BundleMeta } from '../../core/bundle'
import { StorageNotFoundError, type StorageEntry } from '../../core/results/storage'
import { ReadOnlyStorage } from './readOnlyStorage'

export type ChunkLoader = (chunk: number) => Promise<unknown>

const clean = (path: string) =>
  path
    .split('/')
    .filter((p) => p !== '' && p !== '.')
    .join('/')

export class BundleStorage extends ReadOnlyStorage {
  readonly label: string
  readonly meta: BundleMeta
  private readonly files = new Map<string, string>()
  /** Folder → its children (name → kind), from every chunk loaded so far. */
  private readonly dirs = new Map<string, Map<string, 'file' | 'dir'>>()
  /** Folder → the chunk that holds the rest of it; removed once that chunk is in. */
  private readonly pending = new Map<string, number>()
  private readonly loading = new Map<number, Promise<void>>()

  constructor(
    index: BundleChunk,
    private readonly load: ChunkLoader,
  ) {
    super()
    if (!index.meta) throw new Error('the bundle index has no meta (is data/index.js from a redscope bundle?)')
    this.meta = index.meta
    this.label = index.meta.title
    this.add(index)
  }

  private addPath(path: string, kind: 'file' | 'dir') {
    const parts = path.split('/')
    for (let i = 0; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/')
      const children = this.dirs.get(dir) ?? new Map<string, 'file' | 'dir'>()
      children.set(parts[i], i === parts.length - 1 ? kind : 'dir')
      this.dirs.set(dir, children)
    }
  }

  private add(chunk: BundleChunk) {
    for (const [path, text] of chunk.files) {
      this.files.set(path, text)
      this.addPath(path, 'file')
    }
    for (const [dir, n] of chunk.mounts) {
      this.pending.set(dir, n)
      this.addPath(dir, 'dir')
    }
  }

  private loadChunk(dir: string, n: number): Promise<void> {
    let p = this.loading.get(n)
    if (!p) {
      p = this.load(n).then((raw) => {
        const chunk = parseChunk(raw, `data/${n}.js`)
        if (chunk.chunk !== n) throw new Error(`data/${n}.js holds chunk ${chunk.chunk}: the bundle's files are mixed up`)
        this.add(chunk)
        this.pending.delete(dir)
      })
      // A chunk that failed to load may be asked again (a flaky static host).
      p.catch(() => this.loading.delete(n))
      this.loading.set(n, p)
    }
    return p
  }

  /** Loads every chunk that holds part of `path` (a file or a folder): the mounts at or above it. */
  private async settle(path: string): Promise<void> {
    for (;;) {
      const waiting = [...this.pending].filter(([dir]) => dir === path || path.startsWith(`${dir}/`))
      if (waiting.length === 0) return
      await Promise.all(waiting.map(([dir, n]) => this.loadChunk(dir, n)))
    }
  }

  async readText(path: string): Promise<string> {
    const p = clean(path)
    let text = this.files.get(p)
    if (text === undefined) {
      await this.settle(p)
      text = this.files.get(p)
    }
    if (text === undefined) throw new StorageNotFoundError(path)
    return text
  }

  async list(dir: string): Promise<StorageEntry[]> {
    const d = clean(dir)
    await this.settle(d)
    const children = this.dirs.get(d)
    if (!children) return []
    return [...children].map(([name, kind]) => ({ name, kind })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  }

  async exists(path: string): Promise<boolean> {
    const p = clean(path)
    if (this.files.has(p)) return true
    await this.settle(p)
    return this.files.has(p) || this.dirs.has(p)
  }
}
