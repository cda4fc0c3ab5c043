/**
 * One worker thread that makes the results files: a sweep's engine keeps the
 * main thread while the kernel makes folders and files (most of a results
 * tree's cost on disk) beside it, on the second core.
 *
 * Writes issued in the same tick go over in one message and are done in the
 * order they were issued; each write's promise settles when the thread has
 * done it, with the file system's own error (code and path) if it failed. The
 * thread holds the process open only while writes are outstanding.
 */
import { Worker } from 'node:worker_threads'

/**
 * The thread's code, as plain JavaScript evaluated by the worker: it needs no
 * module loader, so it runs the same under tsx, Vitest and the built CLI.
 * An atomic write goes to a unique temp file beside the target, then rename.
 * Folders are made parent-first and remembered (those above the results
 * root cost one failed mkdir each, once); one removed behind the thread's
 * back is made again.
 */
const THREAD_SOURCE = String.raw`
const { parentPort } = require('node:worker_threads')
const { mkdirSync, renameSync, rmSync, writeFileSync } = require('node:fs')
const { dirname } = require('node:path')
const made = new Set()
let counter = 0
function makeFolder(folder) {
  if (made.has(folder)) return
  const parent = dirname(folder)
  // Parent first: a new task folder and its trajectories/ then cost one mkdir each, never a failed one.
  if (parent !== folder) makeFolder(parent)
  try {
    mkdirSync(folder)
  } catch (error) {
    // ENOENT: a parent remembered as made was removed since; make the whole chain again.
    if (error.code === 'ENOENT') mkdirSync(folder, { recursive: true })
    else if (error.code !== 'EEXIST') throw error
  }
  made.add(folder)
}
function writeInFolder(file, data) {
  const folder = dirname(file)
  makeFolder(folder)
  try {
    writeFileSync(file, data)
  } catch (error) {
    if (error.code !== 'ENOENT') throw error
    for (const f of made) if (f === folder || f.startsWith(folder + '/')) made.delete(f)
    mkdirSync(folder, { recursive: true })
    made.add(folder)
    writeFileSync(file, data)
  }
}
parentPort.on('message', (ops) => {
  const failed = []
  let last = 0
  for (let i = 0; i < ops.length; i += 4) {
    const id = ops[i], atomic = ops[i + 1], file = ops[i + 2], data = ops[i + 3]
    last = id
    try {
      if (!atomic) writeInFolder(file, data)
      else {
        const tmp = file + '.' + process.pid + '.t' + (++counter) + '.tmp'
        try {
          writeInFolder(tmp, data)
          renameSync(tmp, file)
        } catch (error) {
          rmSync(tmp, { force: true })
          throw error
        }
      }
    } catch (error) {
      failed.push([id, String(error && error.message), error && error.code, error && error.syscall, error && error.path])
    }
  }
  parentPort.postMessage({ done: last, failed })
})
`

interface Pending {
  readonly id: number
  readonly resolve: () => void
  readonly reject: (error: Error) => void
}

interface Report {
  readonly done: number
  readonly failed: ReadonlyArray<[number, string, string | undefined, string | undefined, string | undefined]>
}

/** The file system's error as the synchronous call would have thrown it (message, code, syscall, path). */
function errorOf(message: string, code?: string, syscall?: string, path?: string): Error {
  return Object.assign(new Error(message), code === undefined ? {} : { code }, syscall === undefined ? {} : { syscall }, path === undefined ? {} : { path })
}

const isPlainArrayBuffer = (b: ArrayBufferLike): b is ArrayBuffer => Object.prototype.toString.call(b) === '[object ArrayBuffer]'

class FsWriteThread {
  private worker: Worker | null = null
  /** Ids of writes handed over and not yet done, oldest first (the thread does them in order). */
  private readonly pending: Pending[] = []
  private head = 0
  /** This tick's writes, flattened [id, atomic, file, data, ...], sent as one message at its end. */
  private batch: unknown[] = []
  /** Buffers handed over with this tick's writes, moved rather than copied. */
  private transfer: ArrayBuffer[] = []
  private nextId = 0
  /** Every write up to this id is done (ids are settled in order). */
  private settledThrough = 0
  /** Callers waiting for the writes up to an id (those issued before they asked), by that id, in order. */
  private waiters: Array<{ readonly through: number; readonly wake: () => void }> = []

  /**
   * Writes `data` to the absolute path `file` (its folders made as needed); `atomic` publishes it by rename.
   * Bytes that fill their whole buffer are moved to the thread, not copied: the caller's array is detached.
   */
  write(file: string, data: string | Uint8Array, atomic: boolean): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const id = ++this.nextId
      if (this.outstanding() === 0) this.thread().ref()
      this.pending.push({ id, resolve, reject })
      if (this.batch.length === 0) queueMicrotask(() => this.send())
      this.batch.push(id, atomic, file, data)
      // Not instanceof: a typed array from another realm (a VM context, a test environment) is moved as well.
      if (typeof data !== 'string' && isPlainArrayBuffer(data.buffer) && data.byteOffset === 0 && data.byteLength === data.buffer.byteLength) {
        this.transfer.push(data.buffer)
      }
    })
  }

  /**
   * Settles once every write issued so far is done; null when they all are. Writes issued later are not waited
   * for, so a reader among busy writers is never held until they all go quiet.
   */
  writesBefore(): Promise<void> | null {
    const through = this.nextId
    if (this.settledThrough >= through) return null
    return new Promise((wake) => this.waiters.push({ through, wake }))
  }

  private outstanding(): number {
    return this.pending.length - this.head
  }

  private thread(): Worker {
    if (this.worker !== null) return this.worker
    const worker = new Worker(THREAD_SOURCE, { eval: true })
    worker.on('message', (report: Report) => this.settle(report))
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

  private settle(report: Report): void {
    const failed = new Map(report.failed.map((f) => [f[0], f]))
    while (this.head < this.pending.length && this.pending[this.head].id <= report.done) {
      const op = this.pending[this.head++]
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
    this.afterSettling(this.nextId)
  }

  private afterSettling(through: number): void {
    this.settledThrough = through
    let woken = 0
    while (woken < this.waiters.length && this.waiters[woken].through <= through) this.waiters[woken++].wake()
    if (woken > 0) this.waiters = this.waiters.slice(woken)
    if (this.outstanding() > 0) return
    this.pending.length = 0
    this.head = 0
    this.worker?.unref()
  }
}

/** One thread per process, shared by every storage that writes through it. */
export const fsWriteThread = new FsWriteThread()
