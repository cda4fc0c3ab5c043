/**
 * The pace of a single run of a demo target in the live view: the demo
 * targets answer at once, so without it a run ends before anyone can follow
 * it. Applied here, in the browser, to the one run people watch; never to a
 * sweep, a frontier search or the CLI (the served targets answer at once).
 * `localStorage["redscope.livePaceMs"]` (0 to 60000) overrides it: 0 for
 * tests, which watch nothing.
 */
import type { TargetFactory } from '../../../core/engine'
import { DEFAULT_THINK_MS, withThinkTime } from '../../../reference-targets/thinkTime'

export const LIVE_PACE_KEY = 'redscope.livePaceMs'

export function livePaceMs(): number {
  let raw: string | null = null
  try {
    raw = globalThis.localStorage?.getItem(LIVE_PACE_KEY) ?? null
  } catch {
    // Storage refused (a sandboxed frame): the default pace.
  }
  const n = raw === null ? Number.NaN : Number(raw)
  return Number.isInteger(n) && n >= 0 && n <= 60_000 ? n : DEFAULT_THINK_MS
}

/** `factory`'s targets pausing `ms` before each step (none at 0). */
export function pacedFactory(factory: TargetFactory, ms: number): TargetFactory {
  if (ms <= 0) return factory
  return { concurrency: factory.concurrency, create: async () => withThinkTime(await factory.create(), ms) }
}
