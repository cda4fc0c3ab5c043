/** Small async primitives the Controller needs: abortable awaits, bounded joins, a semaphore. */

const noop = () => {}

/**
 * Removes one element, keeping the others' order, without allocating. An
 * array rather than a Set for the hot path's few pending entries: a Set
 * emptied and refilled at every await rehashes (allocates) each time.
 */
export function removeItem<T>(items: T[], item: T): void {
  const i = items.lastIndexOf(item)
  if (i < 0) return
  for (let j = i; j < items.length - 1; j++) items[j] = items[j + 1]
  items.pop()
}

/**
 * Per signal, the rejecters of the abortable awaits now pending on it: the
 * signal gets one listener in its life instead of one added and removed per
 * await (EventTarget listeners are slow to add and remove on a hot path).
 */
const pendingBySignal = new WeakMap<AbortSignal, Array<(reason: unknown) => void>>()

function pendingOn(signal: AbortSignal): Array<(reason: unknown) => void> {
  let pending = pendingBySignal.get(signal)
  if (pending === undefined) {
    const waiting: Array<(reason: unknown) => void> = []
    pending = waiting
    pendingBySignal.set(signal, waiting)
    signal.addEventListener(
      'abort',
      () => {
        for (const reject of waiting.splice(0)) reject(signal.reason)
      },
      { once: true },
    )
  }
  return pending
}

/**
 * Awaits `work`, but rejects with the signal's reason as soon as it aborts:
 * JS cannot cancel a promise, so the work is abandoned (its late rejection is
 * swallowed, never an unhandled rejection) and the caller unwinds at once, as
 * a cancelled Python coroutine does.
 */
export function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(noop)
    return Promise.reject(signal.reason)
  }
  const pending = pendingOn(signal)
  return new Promise<T>((resolve, reject) => {
    pending.push(reject)
    // Both outcomes are handled here, so an abandoned work's rejection is never unhandled.
    work.then(
      (value) => {
        removeItem(pending, reject)
        resolve(value)
      },
      (error) => {
        removeItem(pending, reject)
        reject(error)
      },
    )
  })
}

/**
 * Calls `fn` with the signal's reason when it aborts (at once if it has);
 * returns the way to stop listening. Shares the signal's one listener with
 * `abortable`, so a request per step does not add and remove an EventTarget
 * listener each time.
 */
export function whenAborted(signal: AbortSignal, fn: (reason: unknown) => void): () => void {
  if (signal.aborted) {
    fn(signal.reason)
    return noop
  }
  const pending = pendingOn(signal)
  const once = (reason: unknown) => {
    removeItem(pending, once)
    fn(reason)
  }
  pending.push(once)
  return () => {
    removeItem(pending, once)
  }
}

/**
 * A signal's aborted state as a plain field, for the checks between the
 * steps of a run: AbortSignal's `aborted` getter makes a brand check at
 * every read, a cost a profile showed with several checks per run. Set by
 * the signal's one shared listener, before any continuation can look.
 */
export class AbortLatch {
  readonly signal: AbortSignal
  #aborted: boolean
  readonly #unlisten: () => void

  constructor(signal: AbortSignal) {
    this.signal = signal
    this.#aborted = signal.aborted
    this.#unlisten = whenAborted(signal, () => {
      this.#aborted = true
    })
  }

  get aborted(): boolean {
    return this.#aborted
  }

  /** Throws the signal's reason once it has aborted. */
  check(): void {
    if (this.#aborted) throw this.signal.reason
  }

  /** Stops listening (the task is over). */
  release(): void {
    this.#unlisten()
  }
}

/** Throws the signal's reason once it has aborted: the check between the steps of abandoned work. */
export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason
}

export type Settled = { ok: true } | { ok: false; error: unknown } | { ok: false; abandoned: true }

/**
 * Waits for cleanup work. Unbounded while nothing is cancelled; once the
 * signal is (or becomes) aborted it waits at most `graceMs` more, then stops
 * waiting (the reference's 5 s cleanup grace under cancellation).
 */
export function finishOrAbandon(work: () => Promise<unknown>, signal: AbortSignal, graceMs: number): Promise<Settled> {
  let started: Promise<unknown>
  try {
    started = Promise.resolve(work())
  } catch (error) {
    return Promise.resolve({ ok: false, error })
  }
  return new Promise<Settled>((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const arm = () => {
      timer = setTimeout(() => resolve({ ok: false, abandoned: true }), graceMs)
    }
    if (signal.aborted) arm()
    else signal.addEventListener('abort', arm, { once: true })
    const done = (outcome: Settled) => {
      signal.removeEventListener('abort', arm)
      if (timer !== undefined) clearTimeout(timer)
      resolve(outcome)
    }
    started.then(
      () => done({ ok: true }),
      (error: unknown) => done({ ok: false, error }),
    )
  })
}

/** A counting semaphore; waiters are served in arrival order. */
export class Semaphore {
  private available: number
  private readonly waiters: Waiter[] = []
  /**
   * One watch per signal that has waiters, however many wait on it, through the signal's one shared listener
   * (whenAborted): a sweep queues ~1,000 threat models on one cancel signal, and a listener each made Node warn of a
   * leak past 10 and every grant search the signal's list to remove its own.
   */
  private readonly watched = new Map<AbortSignal, { waiting: number; readonly stop: () => void }>()

  constructor(permits: number) {
    this.available = permits
  }

  /** Resolves with a release function, or rejects with the signal's reason if it aborts first. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason)
    const release = once(() => this.release())
    if (this.available > 0) {
      this.available -= 1
      return Promise.resolve(release)
    }
    return new Promise((resolve, reject) => {
      this.waiters.push({ signal, grant: () => resolve(release), reject })
      if (signal !== undefined) this.watch(signal)
    })
  }

  private watch(signal: AbortSignal): void {
    const watch = this.watched.get(signal)
    if (watch !== undefined) {
      watch.waiting += 1
      return
    }
    const onAbort = () => {
      this.watched.delete(signal)
      // In place, in order: the waiters on other signals keep their turns.
      let kept = 0
      for (let i = 0; i < this.waiters.length; i++) {
        const w = this.waiters[i]
        if (w.signal === signal) w.reject(signal.reason)
        else this.waiters[kept++] = w
      }
      this.waiters.length = kept
    }
    this.watched.set(signal, { waiting: 1, stop: whenAborted(signal, onAbort) })
  }

  private release(): void {
    const next = this.waiters.shift()
    if (next === undefined) {
      this.available += 1
      return
    }
    const watch = next.signal === undefined ? undefined : this.watched.get(next.signal)
    if (watch !== undefined && --watch.waiting === 0) {
      this.watched.delete(next.signal!)
      watch.stop()
    }
    next.grant()
  }
}

interface Waiter {
  readonly signal: AbortSignal | undefined
  readonly grant: () => void
  readonly reject: (reason: unknown) => void
}

function once(fn: () => void): () => void {
  let called = false
  return () => {
    if (called) return
    called = true
    fn()
  }
}
