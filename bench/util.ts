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
