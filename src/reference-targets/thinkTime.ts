/**
 * A think time for the served demo targets. The reference targets answer at
 * once, so a demo run finished before anyone could see the live view: served
 * for people (`npm start`, `redscope serve-target`), a target pauses before
 * each step it takes (each call at a controllable) as a model would while it
 * thinks, so that a presenter can narrate progress. Tests and benchmarks set
 * it to zero (REDSCOPE_THINK_MS=0) so that nothing gets slower.
 */
import type { Target } from '../core/engine'

/** A realistic pace for a live demo: long enough to watch a step arrive, short enough not to bore. */
export const DEFAULT_THINK_MS = 800

export const THINK_ENV = 'REDSCOPE_THINK_MS'

/** A think time is a whole number of milliseconds, 0 to a minute (anything longer is a typo, not a pace). */
export function parseThinkMs(text: string, source: string): number {
  const n = Number(text.trim())
  if (text.trim() === '' || !Number.isInteger(n) || n < 0 || n > 60_000) {
    throw new RangeError(`${source} must be a whole number of milliseconds from 0 to 60000 (got '${text}')`)
  }
  return n
}

/** The think time given by the environment, else the demo's default. */
export function thinkMsFromEnv(env: Readonly<Record<string, string | undefined>> = globalThis.process?.env ?? {}): number {
  const raw = env[THINK_ENV]
  return raw === undefined || raw === '' ? DEFAULT_THINK_MS : parseThinkMs(raw, THINK_ENV)
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason)
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/**
 * `target` taking `ms` before each of its steps. Zero returns the target
 * itself, so tests and benchmarks run exactly the code they ran before.
 * A cancelled run stops thinking at once.
 */
export function withThinkTime(target: Target, ms: number): Target {
  if (ms <= 0) return target
  const run: Target['run'] = (emit, sendEvent, signal) =>
    target.run(emit, async (event) => {
      await pause(ms, signal)
      return sendEvent(event)
    }, signal)
  // A Proxy keeps the target's own getters and methods (and their `this`) and changes run alone.
  return new Proxy(target, {
    get(t, key) {
      if (key === 'run') return run
      const value: unknown = Reflect.get(t, key, t)
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(t) : value
    },
  })
}
