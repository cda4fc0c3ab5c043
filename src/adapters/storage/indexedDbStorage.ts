/**
 * A results tree in IndexedDB, for the browser: one record per file, keyed by
 * its path. A single put is its own transaction, so every write is atomic.
 * Several trees can share one database under different `prefix`es.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb'
import { StorageNotFoundError, joinPath, type Storage, type StorageEntry } from '../../core/results/storage'

interface ResultsDb extends DBSchema {
  files: { key: string; value: string }
}

const STORE = 'files'
/** Sorts after every character a path uses, to bound a prefix range. */
const HIGH = '\uffff'

export class IndexedDbStorage implements Storage {
  private readonly db: Promise<IDBPDatabase<ResultsDb>>
  private readonly prefix: string

  constructor(databaseName: string, prefix = '') {
    this.db = openDB<ResultsDb>(databaseName, 1, {
      upgrade(db) {
        db.createObjectStore(STORE)
      },
    })
    this.prefix = joinPath(prefix)
  }

  private key(path: string): string {
    return joinPath(this.prefix, path)
  }

  private async keysUnder(path: string): Promise<string[]> {
    const base = this.key(path)
    const start = base === '' ? '' : `${base}/`
    return (await this.db).getAllKeys(STORE, IDBKeyRange.bound(start, start + HIGH))
  }

  async readText(path: string): Promise<string> {
    const text = await (await this.db).get(STORE, this.key(path))
    if (text === undefined) throw new StorageNotFoundError(path)
    return text
  }

  async writeTextAtomic(path: string, text: string): Promise<void> {
    await (await this.db).put(STORE, text, this.key(path))
  }

  async list(dir: string): Promise<StorageEntry[]> {
    const base = this.key(dir)
    const start = base === '' ? '' : `${base}/`
    const seen = new Map<string, StorageEntry['kind']>()
    for (const key of await this.keysUnder(dir)) {
      const rest = key.slice(start.length)
      const slash = rest.indexOf('/')
      if (slash < 0) {
        if (!seen.has(rest)) seen.set(rest, 'file')
      } else {
        seen.set(rest.slice(0, slash), 'dir')
      }
    }
    return [...seen].map(([name, kind]) => ({ name, kind })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  }

  async exists(path: string): Promise<boolean> {
    const db = await this.db
    if ((await db.getKey(STORE, this.key(path))) !== undefined) return true
    const base = this.key(path)
    return (await db.count(STORE, IDBKeyRange.bound(`${base}/`, `${base}/${HIGH}`))) > 0
  }

  async remove(path: string): Promise<void> {
    const db = await this.db
    const base = this.key(path)
    const tx = db.transaction(STORE, 'readwrite')
    await Promise.all([tx.store.delete(base), tx.store.delete(IDBKeyRange.bound(`${base}/`, `${base}/${HIGH}`)), tx.done])
  }

  /** No links in IndexedDB: a snapshot is a copy. */
  async linkOrCopy(from: string, to: string): Promise<void> {
    await this.writeTextAtomic(to, await this.readText(from))
  }

  async close(): Promise<void> {
    ;(await this.db).close()
  }
}
