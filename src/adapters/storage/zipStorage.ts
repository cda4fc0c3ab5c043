import { unzipSync } from 'fflate'
import { StorageNotFoundError, type StorageEntry } from '../../core/results/storage'
import { PathIndex, ReadOnlyStorage } from './readOnlyStorage'

export class ZipFormatError extends Error {
  constructor(label: string, problem: string) {
    super(`${label}: not a readable zip (${problem})`)
    this.name = 'ZipFormatError'
  }
}

/** One entry larger than this, uncompressed, is refused rather than inflated (a zip bomb). */
const MAX_ENTRY_BYTES = 512 * 2 ** 20

/**
 * A zipped results tree. The central directory is read once; an entry is
 * inflated only when a file is read, so opening a large zip costs little.
 */
export class ZipStorage extends ReadOnlyStorage {
  readonly label: string
  private readonly data: Uint8Array
  private readonly index: PathIndex<{ name: string; originalSize: number }>

  constructor(data: Uint8Array, label: string) {
    super()
    this.data = data
    this.label = label
    const entries: Array<readonly [string, { name: string; originalSize: number }]> = []
    try {
      unzipSync(data, {
        filter: (f) => {
          if (!f.name.endsWith('/')) entries.push([f.name, { name: f.name, originalSize: f.originalSize }])
          return false
        },
      })
    } catch (error) {
      throw new ZipFormatError(label, error instanceof Error ? error.message : String(error))
    }
    this.index = new PathIndex(entries)
  }

  get fileCount(): number {
    return this.index.size
  }

  async readText(path: string): Promise<string> {
    const entry = this.index.get(path)
    if (entry === undefined) throw new StorageNotFoundError(path)
    if (entry.originalSize > MAX_ENTRY_BYTES) {
      throw new ZipFormatError(this.label, `${entry.name} would inflate to ${entry.originalSize} bytes`)
    }
    const out = unzipSync(this.data, { filter: (f) => f.name === entry.name })
    const bytes = out[entry.name]
    if (bytes === undefined) throw new StorageNotFoundError(path)
    return new TextDecoder().decode(bytes)
  }

  async list(dir: string): Promise<StorageEntry[]> {
    return this.index.list(dir)
  }
}
