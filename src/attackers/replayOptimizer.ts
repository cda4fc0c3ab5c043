/**
 * `replay`: re-injects what a recorded run injected, surface by surface in
 * the recorded order, to check whether a finding still reproduces. A pause
 * the recording has no value for is declined. With several recorded runs,
 * run k replays recording k; done after the last.
 */
import { BaseOptimizer, injection, noInjection, plainResponse, runEndResponse, type Event, type EventResponse } from '../core/engine'
import { InjectionJson, NoInjectionJson, type TrajectoryItemJson } from '../core/results'

/** One recorded answer at a surface: the injected value, or null for a recorded decline. */
export interface RecordedAnswer {
  readonly controllable: string
  readonly value: string | null
}

export type RecordedRun = readonly RecordedAnswer[]

/** The answers an optimizer gave in a persisted trajectory (scope declines included, as declines). */
export function recordedRun(items: readonly TrajectoryItemJson[]): RecordedRun {
  const out: RecordedAnswer[] = []
  for (const item of items) {
    const injected = InjectionJson.safeParse(item)
    if (injected.success) {
      out.push({ controllable: injected.data.controllable, value: injected.data.value })
      continue
    }
    const declined = NoInjectionJson.safeParse(item)
    if (declined.success) out.push({ controllable: declined.data.controllable, value: null })
  }
  return out
}

export class ReplayOptimizer extends BaseOptimizer {
  private readonly runs: readonly RecordedRun[]
  private runIndex = 0
  private queues = new Map<string, Array<string | null>>()

  constructor(runs: readonly RecordedRun[]) {
    super()
    if (runs.length === 0) throw new Error('the replay attacker needs at least one recorded run')
    this.runs = runs
  }

  private load(): void {
    this.queues = new Map()
    for (const a of this.runs[Math.min(this.runIndex, this.runs.length - 1)]) {
      const q = this.queues.get(a.controllable) ?? []
      q.push(a.value)
      this.queues.set(a.controllable, q)
    }
  }

  async onEvent(event: Event): Promise<EventResponse> {
    switch (event.type) {
      case 'RunStartEvent':
        this.load()
        return plainResponse(event)
      case 'ControllablePreCallEvent':
      case 'ControllablePostCallEvent': {
        const value = this.queues.get(event.controllable.name)?.shift() ?? null
        return value === null ? noInjection(event, 'optimizer') : injection(event, value)
      }
      case 'RunEndEvent':
        this.runIndex += 1
        return runEndResponse(event, this.runIndex >= this.runs.length)
      default:
        return plainResponse(event)
    }
  }
}

export function replayOptimizerFactory(runs: readonly RecordedRun[]) {
  return function replay() {
    return new ReplayOptimizer(runs)
  }
}
