import { createServer } from 'node:net'
/** Shared helpers for bench/*.bench.ts: timing, memory and aligned printing. */

export async function time<T>(fn: () => T | Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now()
  const value = await fn()
  return { ms: performance.now() - start, value }
}

/** Median wall time of `runs` calls, after one warm-up. */
export async function median(runs: number, fn: () => unknown): Promise<number> {
  await fn()
  const samples: number[] = []
  for (let i = 0; i < runs; i++) samples.push((await time(fn)).ms)
  samples.sort((a, b) => a - b)
  return samples[Math.floor(samples.length / 2)]
}

export function heapMb(): number {
  return process.memoryUsage().heapUsed / 2 ** 20
}

export function row(label: string, ...cells: Array<string | number>): void {
  const fmt = (c: string | number) =>
    typeof c === 'string' ? c : Number.isInteger(c) ? c.toLocaleString('en-US') : c.toFixed(Math.abs(c) < 10 ? 2 : 1)
  console.log(`${label.padEnd(48)} ${cells.map(fmt).join('  ')}`)
}

/** A free TCP port on 127.0.0.1, for a server a bench starts (vite preview, a target). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.on('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })
}

/** Polls `url` until it answers 2xx, or throws after `ms`. */
export async function waitForHttp(url: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`${url} did not answer within ${ms} ms`)
}

/** Median of numbers (the upper one of an even count). */
export function med(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

/** The value at quantile `q` (0..1) of numbers, nearest rank. */
export function quantile(xs: readonly number[], q: number): number {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]
}
