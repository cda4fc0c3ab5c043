/**
 * The results writer thread's own code (see fsWriteThread, which starts it): it makes the folders and files, and
 * prints the trajectory files it is handed as jobs, beside the engine on the main thread.
 *
 * A message is a batch of writes, flattened [id, mode, file, data, size, ...] and done in order; the thread reports
 * the last id done and the writes that failed, with the file system's error (message, code, syscall, path), and
 * stores each id in shared memory as its write is made (how far behind it is, without waiting for a report). An
 * atomic write goes to a unique temp file beside the target, then rename. Folders are made parent-first and
 * remembered (those above the results root cost one failed mkdir each, once); one removed behind the thread's back
 * is made again.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { parentPort, workerData } from 'node:worker_threads'
import { trajectoryTexts, type TrajectoryJob } from '../../core/results/trajectoryText'
import { WRITE_MODE, type WriteReport } from './writeOps'

const made = new Set<string>()
const shared = workerData as { ring: SharedArrayBuffer; progress: SharedArrayBuffer }
const ring = new Uint8Array(shared.ring)
/** The id of the last write made, for the side that hands writes over (how far behind this thread is). */
const progress = new Int32Array(shared.progress)
let counter = 0

function makeFolder(folder: string): void {
  if (made.has(folder)) return
  const parent = dirname(folder)
  // Parent first: a new task folder and its trajectories/ then cost one mkdir each, never a failed one.
  if (parent !== folder) makeFolder(parent)
  try {
    mkdirSync(folder)
  } catch (error) {
    // ENOENT: a parent remembered as made was removed since; make the whole chain again.
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') mkdirSync(folder, { recursive: true })
    else if (code !== 'EEXIST') throw error
  }
  made.add(folder)
}

function writeInFolder(file: string, data: string | Uint8Array): void {
  const folder = dirname(file)
  makeFolder(folder)
  try {
    writeFileSync(file, data)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    for (const f of made) if (f === folder || f.startsWith(`${folder}/`)) made.delete(f)
    mkdirSync(folder, { recursive: true })
    made.add(folder)
    writeFileSync(file, data)
  }
}

function writeAtomic(file: string, data: string | Uint8Array): void {
  const tmp = `${file}.${process.pid}.t${++counter}.tmp`
  try {
    writeInFolder(tmp, data)
    renameSync(tmp, file)
  } catch (error) {
    rmSync(tmp, { force: true })
    throw error
  }
}

/** A job's texts, printed here, each to its path; the first that fails stops the rest. */
function writeTrajectories(paths: readonly string[], job: TrajectoryJob): void {
  const texts = trajectoryTexts(job)
  for (let i = 0; i < paths.length; i++) writeInFolder(paths[i], texts[i])
}

parentPort!.on('message', (ops: unknown[]) => {
  const failed: WriteReport['failed'] = []
  let last = 0
  for (let i = 0; i < ops.length; i += 5) {
    const id = ops[i] as number
    const mode = ops[i + 1] as number
    const size = ops[i + 4] as number
    last = id
    try {
      if (mode === WRITE_MODE.trajectories) writeTrajectories(ops[i + 2] as string[], ops[i + 3] as TrajectoryJob)
      else {
        const file = ops[i + 2] as string
        // A text in the shared ring arrives as where its UTF-8 bytes start; they stay there until this write is reported.
        const at = ops[i + 3] as number
        const data = size >= 0 ? ring.subarray(at, at + size) : (ops[i + 3] as string | Uint8Array)
        if (mode === WRITE_MODE.atomic) writeAtomic(file, data)
        else writeInFolder(file, data)
      }
    } catch (error) {
      const e = error as NodeJS.ErrnoException
      failed.push([id, String(e?.message), e?.code, e?.syscall, e?.path])
    }
    Atomics.store(progress, 0, id)
  }
  parentPort!.postMessage({ done: last, failed } satisfies WriteReport)
})
