/**
 * A think time for the demo targets. The reference targets answer at once,
 * so a demo run finished before anyone could see the live view. The pace is
 * for people watching, so the browser's live view applies it to a single run
 * of a demo target (src/features/run-console/runner/livePace.ts), never a
 * sweep, a frontier search or the CLI. A served target pauses only when told
 * to (`--think-ms N`, REDSCOPE_THINK_MS=N): a CLI sweep of the demo assistant
 * took over 2 minutes for 17 of 305 threat models at 800 ms a step.
 */
import type { Target } from '../core/engine'

/** A realistic pace for a live demo: long enough to watch a step arrive, short enough not to bore (the live view's). */
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

/** A served target's think time: the environment's, else none (the browser's live view paces a demo run itself). */
export function thinkMsFromEnv(env: Readonly<Record<string, string | undefined>> = globalThis.process?.env ?? {}): number {
  const raw = env[THINK_ENV]
  return raw === undefined || raw === '' ? 0 : parseThinkMs(raw, THINK_ENV)
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
    target.run(
      emit,
      async (event) => {
        await pause(ms, signal)
        return sendEvent(event)
      },
      signal,
    )
  // A Proxy keeps the target's own getters and methods (and their `this`) and changes run alone.
  return new Proxy(target, {
    get(t, key) {
      if (key === 'run') return run
      const value: unknown = Reflect.get(t, key, t)
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(t) : value
    },
  })
}
