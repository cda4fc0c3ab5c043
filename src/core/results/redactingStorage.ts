/**
 * The persistence boundary of secrets (core/redaction/secretMask.ts): a Storage whose every write has the
 * keys redscope holds masked out, and one whose every read does (for exports of trees written elsewhere).
 * Everything written into a results tree goes through a Storage, whoever prints it (the results writer,
 * the experiments index, a sweep's or a frontier's record), so nothing is written past the mask.
 */
import type { SecretMask } from '../redaction'
import type { Storage } from './storage'
import type { TrajectoryJob } from './trajectoryText'

/**
 * A trajectory job with the mask applied to each string it holds before it is printed: the same file as
 * masking the printed text (a JSON-escaped form comes from the masked string), and the job can still be
 * printed on the storage's writer thread.
 */
function maskedJob(job: TrajectoryJob, mask: SecretMask): TrajectoryJob {
  return {
    ...job,
    pieces: job.pieces.map((p) => mask.mask(p)),
    items: job.items.map((slot) => (typeof slot === 'string' ? mask.mask(slot) : slot)),
  }
}

/** One wrapper per storage and set of secrets: the experiments index is shared by every writer through the same object. */
const writers = new WeakMap<Storage, Map<string, Storage>>()

/** `storage` with the mask applied to every text written; `storage` itself when there is nothing to mask. */
export function redactingStorage(storage: Storage, mask: SecretMask): Storage {
  if (!mask.active) return storage
  let byKey = writers.get(storage)
  if (byKey === undefined) writers.set(storage, (byKey = new Map()))
  let wrapped = byKey.get(mask.key)
  if (wrapped === undefined) {
    const m = (text: string) => mask.mask(text)
    const bulk = storage.bulk
    const revision = storage.revision?.bind(storage)
    wrapped = {
      readText: (path) => storage.readText(path),
      writeTextAtomic: (path, text) => storage.writeTextAtomic(path, m(text)),
      list: (dir) => storage.list(dir),
      exists: (path) => storage.exists(path),
      remove: (path) => storage.remove(path),
      linkOrCopy: (from, to) => storage.linkOrCopy(from, to),
      // No writeBytesAtomic: its writer (the experiments index) then writes text, which is masked here.
      ...(revision ? { revision } : {}),
      ...(bulk
        ? {
            bulk: {
              writeTextUnpublished: (path: string, text: string) => bulk.writeTextUnpublished(path, m(text)),
              writeTrajectoriesUnpublished: (paths: readonly string[], job: TrajectoryJob) =>
                bulk.writeTrajectoriesUnpublished(paths, maskedJob(job, mask)),
            },
          }
        : {}),
    }
    byKey.set(mask.key, wrapped)
  }
  return wrapped
}

/** `storage` read through the mask (what an export reads); writes are refused, as an export never writes. */
export function redactingReader(storage: Storage, mask: SecretMask): Storage {
  if (!mask.active) return storage
  const refused = () => Promise.reject(new Error('an export reads its tree; it never writes'))
  return {
    readText: async (path) => mask.mask(await storage.readText(path)),
    writeTextAtomic: refused,
    list: (dir) => storage.list(dir),
    exists: (path) => storage.exists(path),
    remove: refused,
    linkOrCopy: refused,
  }
}
