/**
 * One worker thread that makes the results files: a sweep's engine keeps the
 * main thread while the kernel makes folders and files (most of a results
 * tree's cost on disk) beside it, on the second core, and while the thread
 * prints the trajectory files (most of a tree's bytes) from their jobs.
 *
 * Writes issued in the same tick go over in one message and are done in the
 * order they were issued; each write's promise settles when the thread has
 * done it, with the file system's own error (code and path) if it failed. The
 * thread holds the process open only while writes are outstanding.
 */
import { Worker } from 'node:worker_threads'
import { trajectoryTexts, type TrajectoryJob } from '../../core/results/trajectoryText'
import { TextRing, type RingSlot } from './textRing'
import { WRITE_MODE, type WriteReport } from './writeOps'

/**
 * Starts the thread on its module (writerThread). The compiled CLI has it as JavaScript beside its entry
 * (dist-cli/writerThread.js). From the sources (tsx, Vitest, the bench) it is TypeScript, so the thread registers
 * tsx's loader first: a worker does not take it from the thread that starts it.
 */
function startThread(workerData: { ring: SharedArrayBuffer; progress: SharedArrayBuffer }): Worker {
  const here = import.meta.url
  if (!here.endsWith('.ts')) {
    // Compiled, this code sits in dist-cli/ itself or in its chunks/.
    return new Worker(new URL(here.includes('/chunks/') ? '../writerThread.js' : './writerThread.js', here), { workerData })
  }
  const entry = JSON.stringify(new URL('./writerThread.ts', here).href)
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'))
  return new Worker(`import(${tsx}).then((api) => { api.register(); return import(${entry}) })`, { eval: true, workerData })
}

interface Pending {
  readonly id: number
  /** The file written, or a trajectory job's files. */
  readonly file: string | readonly string[]
  /** Where its text sits in the ring, given back once the thread has written it. */
  readonly slot: RingSlot | null
  readonly resolve: () => void
  readonly reject: (error: Error) => void
}

/** The file system's error as the synchronous call would have thrown it (message, code, syscall, path). */
function errorOf(message: string, code?: string, syscall?: string, path?: string): Error {
  return Object.assign(
    new Error(message),
    code === undefined ? {} : { code },
    syscall === undefined ? {} : { syscall },
    path === undefined ? {} : { path },
  )
}

/** Is `file` the path `path` or somewhere below it (as paths, not as text: /a/b-2 is not below /a/b)? */
function atOrBelow(file: string, path: string): boolean {
  return file.startsWith(path) && (file.length === path.length || path.endsWith('/') || file.charCodeAt(path.length) === 47) /* '/' */
}

const isPlainArrayBuffer = (b: ArrayBufferLike): b is ArrayBuffer => Object.prototype.toString.call(b) === '[object ArrayBuffer]'

/** Room for the texts in flight: a sweep keeps a few MB outstanding; a text that finds no room is posted as a string. */
const RING_BYTES = 8 << 20

/**
 * Writes the thread has yet to make, read from the counter it keeps in shared memory, past which a trajectory job is
 * printed on the calling thread instead: when making files keeps the thread behind (a slow disk), this thread takes
 * over the printing. Counted here instead (writes whose reports this thread has not read yet), a busy engine looked
 * like a slow disk: ~70% of a sweep's jobs were printed on the engine's thread even on a tmpfs, where the writer
 * thread sat idle most of the time. With this count, a 1,000-threat-model sweep prints a few hundred of its 4,000
 * jobs here while the disk keeps up, and more than half once it falls behind (ext4 soon after a large deletion).
 * 64 printed ~40 here on a tmpfs, but too few when the disk fell behind, and was then slower than the old count.
 */
const BACKLOG = 24

export class FsWriteThread {
  private worker: Worker | null = null
  private readonly ringBytes: number
  private textRing: TextRing | null = null
  /** The id of the last write the thread has made, which it stores as it goes (Atomics: another thread writes it). */
  private readonly progress = new Int32Array(new SharedArrayBuffer(4))
  /** Ids of writes handed over and not yet done, oldest first (the thread does them in order). */
  private readonly pending: Pending[] = []
  private head = 0
  /**
   * This tick's writes, flattened [id, mode, file, data, size, ...], sent as one message at its end; data is the
   * offset of a text encoded in the ring (size its bytes), else the string, bytes or job themselves (size -1).
   */
  private batch: unknown[] = []
  /** Buffers handed over with this tick's writes, moved rather than copied. */
  private transfer: ArrayBuffer[] = []
  private nextId = 0
  /** Every write up to this id is done (ids are settled in order). */
  private settledThrough = 0
  /** Callers waiting for the writes up to an id (the newest issued before they asked to a path of theirs). */
  private waiters: Array<{ readonly through: number; readonly wake: () => void }> = []

  /**
   * How many texts went through the ring and how many were posted as strings; how many trajectory jobs were printed
   * on the thread and how many here (for tests).
   */
  readonly counts = { ring: 0, posted: 0, jobsThere: 0, jobsHere: 0 }

  constructor(ringBytes = RING_BYTES) {
    this.ringBytes = ringBytes
  }

  /** Made at the first write: a process that only reads never holds the memory. */
  private get ring(): TextRing {
    return (this.textRing ??= new TextRing(this.ringBytes))
  }

  /**
   * Writes `data` to the absolute path `file` (its folders made as needed); `atomic` publishes it by rename.
   * Bytes that fill their whole buffer are moved to the thread, not copied: the caller's array is detached.
   */
  write(file: string, data: string | Uint8Array, atomic: boolean): Promise<void> {
    const slot = typeof data === 'string' ? this.ring.put(data) : null
    if (typeof data === 'string') this.counts[slot === null ? 'posted' : 'ring']++
    // Not instanceof: a typed array from another realm (a VM context, a test environment) is moved as well.
    if (
      typeof data !== 'string' &&
      isPlainArrayBuffer(data.buffer) &&
      data.byteOffset === 0 &&
      data.byteLength === data.buffer.byteLength
    ) {
      this.transfer.push(data.buffer)
    }
    const mode = atomic ? WRITE_MODE.atomic : WRITE_MODE.plain
    return slot === null ? this.issue(file, mode, data, -1, null) : this.issue(file, mode, slot.at, slot.size, slot)
  }

  /**
   * Writes a trajectory job's i-th text to `files[i]` (absolute), straight into place, printed on the thread unless
   * it has more than BACKLOG writes yet to make.
   */
  writeTrajectories(files: readonly string[], job: TrajectoryJob): Promise<void> {
    if (this.nextId - Atomics.load(this.progress, 0) > BACKLOG) {
      this.counts.jobsHere++
      return Promise.all(trajectoryTexts(job).map((text, i) => this.write(files[i], text, false))).then(() => {})
    }
    this.counts.jobsThere++
    return this.issue(files, WRITE_MODE.trajectories, job, -1, null)
  }

  private issue(file: string | readonly string[], mode: number, data: unknown, size: number, slot: RingSlot | null): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const id = ++this.nextId
      if (this.outstanding() === 0) this.thread().ref()
      this.pending.push({ id, file, slot, resolve, reject })
      if (this.batch.length === 0) queueMicrotask(() => this.send())
      this.batch.push(id, mode, file, data, size)
    })
  }

  /**
   * Settles once every write issued so far to one of `paths` (absolute) or below it is done; null when there is
   * none outstanding. Other writes are not waited for: a new experiment's check that its folder is free, among a
   * sweep's busy writers, would otherwise wait for everything they had queued.
   */
  writesBefore(paths: readonly string[]): Promise<void> | null {
    // The thread does writes in order, so waiting for the newest one that touches a path waits for them all.
    let through = 0
    for (let i = this.pending.length - 1; i >= this.head && through === 0; i--) {
      const file = this.pending[i].file
      const touches =
        typeof file === 'string' ? paths.some((path) => atOrBelow(file, path)) : file.some((f) => paths.some((path) => atOrBelow(f, path)))
      if (touches) through = this.pending[i].id
    }
    if (through === 0 || this.settledThrough >= through) return null
    return new Promise((wake) => this.waiters.push({ through, wake }))
  }

  private outstanding(): number {
    return this.pending.length - this.head
  }

  private thread(): Worker {
    if (this.worker !== null) return this.worker
    const worker = startThread({ ring: this.ring.buffer, progress: this.progress.buffer as SharedArrayBuffer })
    worker.on('message', (report: WriteReport) => this.settle(report))
    const stopped = (reason: string) => {
      if (this.worker !== worker) return
      this.worker = null
      this.failAll(new Error(`the results writer thread stopped (${reason}); the files in flight were not written`))
    }
    worker.on('error', (error) => stopped(error.message))
    worker.on('exit', (code) => stopped(`exit code ${code}`))
    this.worker = worker
    return worker
  }

  private send(): void {
    if (this.batch.length === 0) return // failed with its thread before it was sent
    const ops = this.batch
    const moved = this.transfer
    this.batch = []
    this.transfer = []
    this.thread().postMessage(ops, moved)
  }

  private settle(report: WriteReport): void {
    const failed = new Map(report.failed.map((f) => [f[0], f]))
    while (this.head < this.pending.length && this.pending[this.head].id <= report.done) {
      const op = this.pending[this.head++]
      if (op.slot !== null) this.ring.release(op.slot)
      const failure = failed.get(op.id)
      if (failure === undefined) op.resolve()
      else op.reject(errorOf(failure[1], failure[2], failure[3], failure[4]))
    }
    this.afterSettling(report.done)
  }

  private failAll(error: Error): void {
    this.batch = []
    this.transfer = []
    while (this.head < this.pending.length) this.pending[this.head++].reject(error)
    this.ring.clear()
    this.afterSettling(this.nextId)
  }

  private afterSettling(through: number): void {
    this.settledThrough = through
    // Not in order of `through`: each waits for the newest write under its own paths.
    if (this.waiters.length > 0) {
      const still = this.waiters.filter((w) => w.through > through)
      for (const w of this.waiters) if (w.through <= through) w.wake()
      this.waiters = still
    }
    if (this.outstanding() > 0) return
    this.pending.length = 0
    this.head = 0
    this.worker?.unref()
  }
}

/** One thread per process, shared by every storage that writes through it. */
export const fsWriteThread = new FsWriteThread()
