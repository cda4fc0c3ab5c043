/**
 * Totals of a run, derived from its lanes on read (cached per lane and per
 * session object, so a frame that touched one lane recomputes one lane).
 * ASR as superred's live dashboard: successes among tasks that completed
 * (success, done, max_runs, budget_exhausted); errors, timeouts and skips
 * are not in the denominator.
 */
import { usd } from '../../../lib/format'
import type { Lane, LiveLimits, RunSession } from './liveTypes'

const COMPLETED = new Set(['success', 'done', 'max_runs', 'budget_exhausted'])

export interface Totals {
  readonly tasks: number
  readonly done: number
  readonly running: number
  readonly successes: number
  readonly completed: number
  readonly errors: number
  readonly asr: number | null
  readonly cost: number
}

const laneCache = new WeakMap<Lane, Totals>()

export function laneTotals(lane: Lane): Totals {
  const hit = laneCache.get(lane)
  if (hit) return hit
  let successes = 0
  let completed = 0
  let errors = 0
  let cost = 0
  for (const t of lane.finished) {
    if (COMPLETED.has(t.stopReason)) {
      completed += 1
      if (t.success) successes += 1
    }
    if (t.stopReason === 'error') errors += 1
    cost += t.cost
  }
  const running = Object.values(lane.running)
  for (const r of running) cost += r.cost
  const totals = {
    tasks: lane.info.nTasks,
    done: lane.finished.length,
    running: running.length,
    successes,
    completed,
    errors,
    asr: completed === 0 ? null : successes / completed,
    cost,
  }
  laneCache.set(lane, totals)
  return totals
}

export interface SessionTotals extends Totals {
  readonly models: number
  readonly modelsDone: number
  readonly modelsRunning: number
}

const sessionCache = new WeakMap<RunSession, SessionTotals>()

export function sessionTotals(session: RunSession): SessionTotals {
  const hit = sessionCache.get(session)
  if (hit) return hit
  const sum = { tasks: 0, done: 0, running: 0, successes: 0, completed: 0, errors: 0, cost: 0, modelsDone: 0, modelsRunning: 0 }
  for (const key of session.order) {
    const lane = session.lanes[key]
    const t = laneTotals(lane)
    sum.tasks += t.tasks
    sum.done += t.done
    sum.running += t.running
    sum.successes += t.successes
    sum.completed += t.completed
    sum.errors += t.errors
    sum.cost += t.cost
    if (lane.status === 'done' || lane.status === 'cancelled') sum.modelsDone += 1
    if (lane.status === 'running') sum.modelsRunning += 1
  }
  const totals = { ...sum, models: session.order.length, asr: sum.completed === 0 ? null : sum.successes / sum.completed }
  sessionCache.set(session, totals)
  return totals
}

/** Lanes in the order a person wants them: running first, then finished, then queued (stable within each). */
export function laneOrder(session: RunSession): string[] {
  const rank = (l: Lane) => (l.status === 'running' ? 0 : l.status === 'queued' ? 2 : 1)
  return session.order
    .map((k, i) => ({ k, i, r: rank(session.lanes[k]) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.k)
}

/** The attacker of every lane, when they share one (a run's words name who did not break it); else null. */
export function sessionAttacker(session: RunSession): string | null {
  const labels = new Set(session.order.map((k) => session.lanes[k].info.attacker))
  return labels.size === 1 ? [...labels][0] : null
}

/** "turn 3 / 10"; past the limit the attacker declines every pause, which ends a conversation. */
export function turnText(turn: number, maxTurns: number | null): string {
  if (maxTurns === null) return `turn ${turn}`
  return turn > maxTurns ? `turn limit (${maxTurns}) reached: the attacker declines` : `turn ${turn} / ${maxTurns}`
}

/** A model without a price costs "unpriced", never a $0 that reads as free. */
export function costText(value: number, limits: LiveLimits): string {
  return limits.unpricedModel === null ? usd(value) : 'unpriced'
}
