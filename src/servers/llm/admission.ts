/**
 * Who generates now: `slots` requests at once, the next `maxQueue` waiting in
 * arrival order (FIFO), and any beyond refused at once (the server answers
 * 503 with Retry-After), so that a burst never builds an unbounded backlog.
 * A waiter whose client goes away leaves the queue.
 */

export class QueueFullError extends Error {
  constructor(slots: number, maxQueue: number) {
    super(
      `${slots} answer${slots === 1 ? ' is' : 's are'} being generated and ${maxQueue} request${maxQueue === 1 ? ' is' : 's are'} queued, the most this server holds: retry later`,
    )
    this.name = 'QueueFullError'
  }
}

export class AdmissionClosedError extends Error {
  constructor() {
    super('the server is shutting down')
    this.name = 'AdmissionClosedError'
  }
}

interface Waiter {
  readonly grant: (slot: number) => void
  readonly fail: (e: Error) => void
}

export class Admission {
  private readonly free: number[]
  private readonly waiters: Waiter[] = []
  private closed = false

  constructor(
    readonly slots: number,
    readonly maxQueue: number,
  ) {
    if (!Number.isInteger(slots) || slots < 1) throw new Error('slots must be an integer of at least 1')
    if (!Number.isInteger(maxQueue) || maxQueue < 0) throw new Error('maxQueue must be an integer of at least 0')
    // Lowest slot first: with one request at a time, always slot 0.
    this.free = Array.from({ length: slots }, (_, i) => slots - 1 - i)
  }

  get running(): number {
    return this.slots - this.free.length
  }

  get waiting(): number {
    return this.waiters.length
  }

  /** A slot, now or when one frees; QueueFullError at once when the queue is full; the signal's reason if aborted while waiting. */
  acquire(signal?: AbortSignal): Promise<number> {
    if (this.closed) return Promise.reject(new AdmissionClosedError())
    if (signal?.aborted) return Promise.reject(signal.reason)
    const slot = this.free.pop()
    if (slot !== undefined) return Promise.resolve(slot)
    if (this.waiters.length >= this.maxQueue) return Promise.reject(new QueueFullError(this.slots, this.maxQueue))
    return new Promise<number>((resolve, reject) => {
      const onAbort = () => {
        const i = this.waiters.indexOf(waiter)
        if (i >= 0) this.waiters.splice(i, 1)
        reject(signal!.reason)
      }
      const waiter: Waiter = {
        grant: (s) => {
          signal?.removeEventListener('abort', onAbort)
          resolve(s)
        },
        fail: (e) => {
          signal?.removeEventListener('abort', onAbort)
          reject(e)
        },
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      this.waiters.push(waiter)
    })
  }

  /** Gives the slot to the longest waiter, or back to the pool. */
  release(slot: number): void {
    const next = this.waiters.shift()
    if (next) next.grant(slot)
    else this.free.push(slot)
  }

  /** Refuses every waiter and any later acquire. Slots in use are released by their holders as usual. */
  close(): void {
    this.closed = true
    for (const w of this.waiters.splice(0)) w.fail(new AdmissionClosedError())
  }
}
