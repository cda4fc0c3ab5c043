/**
 * The human attacker's side in the page: the engine's HumanPrompter, whose
 * questions wait in a store until the person answers them in the console.
 * A question carries only what the attacker may see (the offered surfaces
 * and the filtered trajectory so far, as text). Cancelling a run rejects the
 * open questions, so no task waits on a form that is gone.
 */
import { create } from 'zustand'
import { describeEvaluation, describeItem, type HumanInjectionRequest, type HumanPrompter, type HumanRunEnd } from '../../../attackers'
import type { ObservableValue } from '../../../core/engine'

export interface HumanAsk {
  readonly id: number
  readonly kind: 'inject' | 'runEnd'
  readonly lane: string
  readonly goal: string
  readonly runNumber: number
  /** Pauses only. */
  readonly pause: {
    readonly when: 'pre' | 'post'
    readonly controllable: string
    readonly domain: string | null
    readonly description: string
    readonly request: string
    readonly answer: string | null
  } | null
  readonly offered: readonly string[]
  readonly observables: readonly string[]
  /** The filtered view of this run so far, one line per item, as text. */
  readonly seen: readonly string[]
  /** Run ends only: the (scope-filtered) feedback. */
  readonly feedback: string | null
}

interface HumanState {
  readonly asks: readonly HumanAsk[]
}

export const useHuman = create<HumanState>()(() => ({ asks: [] }))

const resolvers = new Map<number, { resolve: (value: string | boolean | null) => void; reject: (e: unknown) => void }>()
let nextId = 1

function ask(a: Omit<HumanAsk, 'id'>, signal: AbortSignal): Promise<string | boolean | null> {
  if (signal.aborted) return Promise.reject(signal.reason)
  const id = nextId++
  return new Promise((resolve, reject) => {
    resolvers.set(id, { resolve, reject })
    useHuman.setState((s) => ({ asks: [...s.asks, { ...a, id }] }))
    signal.addEventListener('abort', () => reject(signal.reason), { once: true })
  })
}

/** The person's answer: text to inject, null to decline, or for a run end true to stop. */
export function answerHuman(id: number, value: string | boolean | null): void {
  const r = resolvers.get(id)
  resolvers.delete(id)
  useHuman.setState((s) => ({ asks: s.asks.filter((a) => a.id !== id) }))
  r?.resolve(value)
}

/** Drops every open question (the run was cancelled or ended). */
export function clearHuman(reason: unknown): void {
  for (const r of resolvers.values()) r.reject(reason)
  resolvers.clear()
  useHuman.setState({ asks: [] })
}

const observableLine = (o: ObservableValue) =>
  `${o.observable.name}${o.content === null || o.content === undefined ? '' : ` = ${typeof o.content === 'string' ? o.content : JSON.stringify(o.content)}`}`

export function browserPrompter(lane: string, maxRuns: number, signal: AbortSignal): HumanPrompter {
  return {
    askInjection: async (r: HumanInjectionRequest) => {
      const value = await ask(
        {
          kind: 'inject',
          lane,
          goal: r.goal,
          runNumber: r.runNumber,
          pause: {
            when: r.kind,
            controllable: r.controllable.name,
            domain: r.controllable.securityDomain?.name ?? null,
            description: r.controllable.description,
            request: r.request,
            answer: r.answer,
          },
          offered: r.offered.map((c) => c.name),
          observables: r.observables.map(observableLine),
          seen: r.seen.map(describeItem).filter((l): l is string => l !== null),
          feedback: null,
        },
        signal,
      )
      return typeof value === 'string' ? value : null
    },
    runEnded: async (end: HumanRunEnd) => {
      // A success ends the task anyway, and after the last run there is nothing to decide.
      if (end.evaluation?.success || end.runNumber >= maxRuns) return false
      const value = await ask(
        {
          kind: 'runEnd',
          lane,
          goal: '',
          runNumber: end.runNumber,
          pause: null,
          offered: [],
          observables: [],
          seen: [],
          feedback: describeEvaluation(end.evaluation),
        },
        signal,
      )
      return value === true
    },
  }
}
