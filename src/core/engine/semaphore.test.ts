/**
 * The Semaphore that caps a Controller's concurrent tasks and runAll's concurrent threat models: permits in arrival
 * order, cancellation of the waiters on an aborted signal, and one abort listener per signal however many wait on
 * it, the one every abortable await of the engine shares (a sweep queues ~1,000 threat models on one cancel signal).
 */
import { getEventListeners } from 'node:events'
import { describe, expect, it } from 'vitest'
import { Semaphore } from './async'

const settled = () => new Promise((r) => setTimeout(r, 0))

describe('Semaphore', () => {
  it('grants permits in arrival order as they are released', async () => {
    const s = new Semaphore(2)
    const order: number[] = []
    const releases = await Promise.all([s.acquire(), s.acquire()])
    const waiting = [1, 2, 3].map((i) =>
      s.acquire().then((release) => {
        order.push(i)
        return release
      }),
    )
    await settled()
    expect(order).toEqual([])
    releases[0]()
    releases[0]() // a second call of the same release gives nothing back
    await settled()
    expect(order).toEqual([1])
    releases[1]()
    ;(await waiting[0])()
    await settled()
    expect(order).toEqual([1, 2, 3])
  })

  it('keeps one abort listener on a signal however many wait on it', async () => {
    const s = new Semaphore(1)
    const cancel = new AbortController()
    const first = await s.acquire(cancel.signal)
    const waiting = Array.from({ length: 2000 }, () => s.acquire(cancel.signal))
    expect(getEventListeners(cancel.signal, 'abort')).toHaveLength(1)
    let release = first
    for (const w of waiting) {
      release()
      release = await w
    }
    // The signal's shared listener stays for its life (see whenAborted); nothing was added per waiter.
    expect(getEventListeners(cancel.signal, 'abort')).toHaveLength(1)
    release()
    ;(await s.acquire(cancel.signal))()
    const again = Array.from({ length: 50 }, () => s.acquire(cancel.signal))
    expect(getEventListeners(cancel.signal, 'abort')).toHaveLength(1)
    for (const w of again) (await w)()
  })

  it('rejects the waiters on an aborted signal with its reason, and serves the others in order', async () => {
    const s = new Semaphore(1)
    const page = new AbortController()
    const other = new AbortController()
    const held = await s.acquire()
    const onPage = [s.acquire(page.signal), s.acquire(page.signal)]
    const served: string[] = []
    const onOther = [s.acquire(other.signal), s.acquire()].map((p, i) =>
      p.then((release) => {
        served.push(`other ${i}`)
        release()
      }),
    )
    page.abort(new Error('cancelled by the user'))
    for (const p of onPage) await expect(p).rejects.toThrow('cancelled by the user')
    held()
    await Promise.all(onOther)
    expect(served).toEqual(['other 0', 'other 1'])
    // An already aborted signal is refused without waiting.
    await expect(s.acquire(page.signal)).rejects.toThrow('cancelled by the user')
  })
})
