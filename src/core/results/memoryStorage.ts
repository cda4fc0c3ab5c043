/** A Storage held in a Map: for tests, previews and trees opened from a zip. */
import { joinPath, StorageNotFoundError, type Storage, type StorageEntry } from './storage'

export class MemoryStorage implements Storage {
  readonly files = new Map<string, string>()

  async readText(path: string): Promise<string> {
    const text = this.files.get(joinPath(path))
    if (text === undefined) throw new StorageNotFoundError(path)
    return text
  }

  async writeTextAtomic(path: string, text: string): Promise<void> {
    this.files.set(joinPath(path), text)
  }

  async list(dir: string): Promise<StorageEntry[]> {
    const prefix = joinPath(dir) === '' ? '' : `${joinPath(dir)}/`
    const seen = new Map<string, StorageEntry['kind']>()
    for (const key of this.files.keys()) {
      if (!key.startsWith(prefix)) continue
      const rest = key.slice(prefix.length)
      const slash = rest.indexOf('/')
      if (slash < 0) seen.set(rest, 'file')
      else seen.set(rest.slice(0, slash), 'dir')
    }
    return [...seen].map(([name, kind]) => ({ name, kind })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  }

  async exists(path: string): Promise<boolean> {
    const p = joinPath(path)
    if (this.files.has(p)) return true
    for (const key of this.files.keys()) if (key.startsWith(`${p}/`)) return true
    return false
  }

  async remove(path: string): Promise<void> {
    const p = joinPath(path)
    for (const key of [...this.files.keys()]) if (key === p || key.startsWith(`${p}/`)) this.files.delete(key)
  }

  async linkOrCopy(from: string, to: string): Promise<void> {
    this.files.set(joinPath(to), await this.readText(from))
  }
}
