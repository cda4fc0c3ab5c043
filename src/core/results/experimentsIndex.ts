/**
 * The results root's experiments.json (the sweep index), kept in memory by
 * every session that writes into the same root through the same storage:
 * read once, updated in memory, and written once per change, coalesced (a
 * change that lands while a write is in flight goes out with the next one).
 * Each row is printed (and UTF-8 encoded) once and the file is the rows
 * joined, so an update never re-reads, re-parses or re-prints the rows
 * before it; a storage that takes bytes gets them without a string ever
 * being built for the whole file.
 *
 * Another writer (another process, another storage object on the same
 * folder) is noticed before each write through the storage's revision token,
 * or, for a storage without one, by reading the file back and comparing it
 * with what was last written: its rows are then read in, and this process's
 * pending rows laid over them. Two processes that write at the very same
 * moment can still lose one update (there is no lock across processes, as
 * before); the reader also lists folders that the index lacks.
 *
 * A sweep (runAll) queues its rows instead of waiting for each: the file
 * grows with every row, so writing it once per finished experiment costs
 * bytes quadratic in the sweep (1,000 experiments wrote ~116 MB of index).
 * Queued rows go out once they are an eighth of the rows written (so the
 * bytes stay a constant multiple of the final file) or have waited
 * QUEUED_MS, and the sweep settles the index before it returns. A crash
 * loses at most those rows from the index, never from the tree, and the
 * reader lists their folders anyway.
 */
import { z } from 'zod'
import { SCHEMA_VERSION, type ResultsSchemaVersion } from './format'
import { pyDumps } from './pyjson'
import { joinPath, StorageNotFoundError, type Storage } from './storage'

export interface IndexRow {
  readonly dir: string
  readonly [key: string]: unknown
}

const LooseIndex = z.object({ experiments: z.array(z.looseObject({ dir: z.string() })) })

/** What the file holds, as superred prints it (indent 2, non-ASCII kept). */
const OPTIONS = { indent: 2, ensureAscii: false } as const
/** A row sits at depth 2: the document, then its "experiments" list. */
const printRow = (row: IndexRow) => pyDumps(row, OPTIONS, 2)

const indexes = new WeakMap<Storage, Map<string, ExperimentsIndex>>()
/** The longest a queued row waits for company before it is written anyway. */
export const QUEUED_MS = 1000
const encoder = new TextEncoder()
const headOf = (version: ResultsSchemaVersion) => `{\n  "schema_version": ${version},\n  "experiments": `

export class ExperimentsIndex {
  private readonly storage: Storage
  private readonly path: string
  /** Printed rows by dir (their UTF-8 bytes when the storage takes bytes), and the dirs in sorted order. */
  private readonly printed = new Map<string, string>()
  private readonly encoded = new Map<string, Uint8Array>()
  private sorted: string[] = []
  /** Rows changed here and not yet written, laid over whatever another writer left. */
  private readonly pending = new Map<string, IndexRow>()
  private loaded = false
  /** The file as this index last read or wrote it: its revision token, else its text. */
  private seen: { revision: string | null } | { text: string | null } | null = null
  private version = 0
  private written = 0
  private flushing: Promise<void> | null = null
  /** The file's schema_version: the last writer's (its rows keep their own experiment's fields). */
  private schemaVersion: ResultsSchemaVersion = SCHEMA_VERSION
  /** Set while queued rows wait for company (see QUEUED_MS). */
  private timer: ReturnType<typeof setTimeout> | null = null

  private constructor(storage: Storage, root: string) {
    this.storage = storage
    this.path = joinPath(root, 'experiments.json')
  }

  /** The index of `root` in `storage`, shared by every session of this process that writes there. */
  static of(storage: Storage, root: string): ExperimentsIndex {
    let byRoot = indexes.get(storage)
    if (!byRoot) {
      byRoot = new Map()
      indexes.set(storage, byRoot)
    }
    const key = joinPath(root)
    let index = byRoot.get(key)
    if (!index) {
      index = new ExperimentsIndex(storage, root)
      byRoot.set(key, index)
    }
    return index
  }

  /** Settles every index of `storage` (one per results root written through it), then rejects naming the first that failed. */
  static async settleAll(storage: Storage): Promise<void> {
    const failures: Error[] = []
    for (const index of indexes.get(storage)?.values() ?? []) {
      try {
        await index.settle()
      } catch (error) {
        failures.push(
          new Error(`could not write ${index.path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error }),
        )
      }
    }
    if (failures.length > 0) throw failures[0]
  }

  /** Adds or replaces the row of `row.dir`; resolves once a write that holds it has completed. */
  async upsert(row: IndexRow, schemaVersion: ResultsSchemaVersion = SCHEMA_VERSION): Promise<void> {
    const mine = this.add(row, schemaVersion)
    while (this.written < mine) await this.startFlush()
  }

  /** Adds or replaces the row of `row.dir` without waiting: it is written with others, at the latest by settle(). */
  queue(row: IndexRow, schemaVersion: ResultsSchemaVersion = SCHEMA_VERSION): void {
    this.add(row, schemaVersion)
    this.schedule()
  }

  /**
   * Writes every row added so far, including any that a queued write failed to write (they stayed pending);
   * rejects if they cannot be written.
   */
  async settle(): Promise<void> {
    this.clearTimer()
    const mine = this.version
    while (this.written < mine) await this.startFlush()
  }

  private add(row: IndexRow, schemaVersion: ResultsSchemaVersion): number {
    this.schemaVersion = schemaVersion
    this.pending.set(row.dir, row)
    this.apply(row)
    return ++this.version
  }

  private startFlush(): Promise<void> {
    if (this.flushing === null) {
      // This write takes every pending row: a timer set for some of them has nothing left to do.
      this.clearTimer()
      const write = this.flush()
      this.flushing = write.finally(() => {
        this.flushing = null
      })
      // Rows queued meanwhile go on with the next write; after a failure they wait for the next row or settle().
      write.then(
        () => this.schedule(),
        () => {},
      )
    }
    return this.flushing
  }

  /** Writes queued rows now if they are an eighth of the file's rows, else within QUEUED_MS. */
  private schedule(): void {
    if (this.flushing !== null || this.written === this.version) return
    if (this.pending.size * 8 >= this.sorted.length) {
      this.startFlush().catch(() => {})
    } else {
      this.timer ??= setTimeout(() => {
        this.timer = null
        if (this.flushing === null && this.written < this.version) this.startFlush().catch(() => {})
      }, QUEUED_MS)
    }
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
  }

  private apply(row: IndexRow): void {
    if (!this.printed.has(row.dir)) {
      // Binary search for the insertion point: rows stay sorted by dir, as superred sorts them.
      let lo = 0
      let hi = this.sorted.length
      while (lo < hi) {
        const mid = (lo + hi) >> 1
        if (this.sorted[mid] < row.dir) lo = mid + 1
        else hi = mid
      }
      this.sorted.splice(lo, 0, row.dir)
    }
    const text = printRow(row)
    this.printed.set(row.dir, text)
    if (this.storage.writeBytesAtomic) this.encoded.set(row.dir, encoder.encode(text))
  }

  private async flush(): Promise<void> {
    const target = this.version
    const batch = [...this.pending.values()]
    if (!this.loaded || (await this.changedElsewhere())) await this.reload()
    let text: string | null = null
    if (this.storage.writeBytesAtomic) await this.storage.writeBytesAtomic(this.path, this.bytes())
    else await this.storage.writeTextAtomic(this.path, (text = this.text()))
    for (const row of batch) if (this.pending.get(row.dir) === row) this.pending.delete(row.dir)
    this.seen = this.storage.revision ? { revision: await this.storage.revision(this.path) } : { text: text ?? this.text() }
    this.written = target
  }

  /** Has the file been replaced since this index last read or wrote it? */
  private async changedElsewhere(): Promise<boolean> {
    const seen = this.seen
    if (seen === null) return true
    if ('revision' in seen) return (await this.storage.revision!(this.path)) !== seen.revision
    return (await this.readOrNull()) !== seen.text
  }

  /** Reads the file (rows of other writers kept as they are: a newer writer may add fields), then lays the pending rows over it. */
  private async reload(): Promise<void> {
    const text = await this.readOrNull()
    let rows: IndexRow[] = []
    try {
      rows = text === null ? [] : LooseIndex.parse(JSON.parse(text)).experiments
    } catch {
      // An unreadable index is rebuilt from what this process knows, as before.
      rows = []
    }
    this.printed.clear()
    this.encoded.clear()
    this.sorted = []
    for (const row of rows) this.apply(row)
    for (const row of this.pending.values()) this.apply(row)
    this.loaded = true
  }

  private async readOrNull(): Promise<string | null> {
    try {
      return await this.storage.readText(this.path)
    } catch (error) {
      if (error instanceof StorageNotFoundError) return null
      throw error
    }
  }

  /** The whole file: exactly what printing `{schema_version, experiments: rows}` at once gives. */
  private text(): string {
    const rows = this.sorted.map((dir) => this.printed.get(dir)!)
    const list = rows.length === 0 ? '[]' : `[\n    ${rows.join(',\n    ')}\n  ]`
    return `${headOf(this.schemaVersion)}${list}\n}`
  }

  /** The same file as UTF-8 bytes, copied together from the rows' own bytes. */
  private bytes(): Uint8Array {
    if (this.sorted.length === 0) return encoder.encode(this.text())
    const head = encoder.encode(`${headOf(this.schemaVersion)}[\n    `)
    const between = encoder.encode(',\n    ')
    const tail = encoder.encode('\n  ]\n}')
    const rows = this.sorted.map((dir) => this.encoded.get(dir)!)
    let size = head.length + tail.length + between.length * (rows.length - 1)
    for (const row of rows) size += row.length
    const out = new Uint8Array(size)
    let at = 0
    const put = (part: Uint8Array) => {
      out.set(part, at)
      at += part.length
    }
    put(head)
    rows.forEach((row, i) => {
      if (i > 0) put(between)
      put(row)
    })
    put(tail)
    return out
  }
}
