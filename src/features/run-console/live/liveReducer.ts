/**
 * Applies a batch of live events to a session: pure, and copying only the
 * lanes the batch touches, so a frame with one event in a sweep of 1,000
 * threat models re-renders one lane.
 */
import { assertNever } from '../../../core/engine'
import { NO_LIMITS, type Lane, type LaneInfo, type LiveEvent, type LiveLimits, type RunSession } from './liveTypes'

const MAX_PROBLEMS = 20

export function newSession(init: {
  id: string
  kind: RunSession['kind']
  title: string
  lanes: readonly LaneInfo[]
  sweepId?: string | null
  now: number
  limits?: LiveLimits
}): RunSession {
  const lanes: Record<string, Lane> = {}
  for (const info of init.lanes) lanes[info.key] = { info, status: 'queued', running: {}, finished: [], problems: [], resultsDir: null }
  return {
    id: init.id,
    kind: init.kind,
    title: init.title,
    startedAt: init.now,
    endedAt: null,
    state: 'running',
    error: null,
    order: init.lanes.map((l) => l.key),
    lanes,
    sweepId: init.sweepId ?? null,
    limits: init.limits ?? NO_LIMITS,
  }
}

type Draft = { -readonly [K in keyof Lane]: Lane[K] } & { running: Record<number, Lane['running'][number]> }

export function applyEvents(session: RunSession, events: readonly LiveEvent[]): RunSession {
  if (events.length === 0) return session
  const touched = new Map<string, Draft>()
  const lane = (key: string): Draft | null => {
    let d = touched.get(key)
    if (d) return d
    const cur = session.lanes[key]
    if (!cur) return null
    d = { ...cur, running: { ...cur.running }, finished: cur.finished, problems: cur.problems }
    touched.set(key, d)
    return d
  }
  let sessionProblem: string | null = null
  for (const e of events) {
    if (e.t === 'problem' && e.key === null) {
      if (e.level === 'error') sessionProblem = e.message
      continue
    }
    const d = lane(e.key!)
    if (d === null) continue
    switch (e.t) {
      case 'tmStart':
        d.status = 'running'
        break
      case 'taskStart':
        d.running[e.index] = { index: e.index, goal: e.goal, runs: 0, turn: 0, best: null, cost: 0, startedAt: e.at, said: null }
        break
      case 'turn': {
        const r = d.running[e.index]
        if (r) d.running[e.index] = { ...r, turn: e.turn }
        break
      }
      case 'run': {
        const r = d.running[e.index]
        if (r) {
          d.running[e.index] = {
            ...r,
            runs: r.runs + 1,
            turn: 0,
            best: e.score === null ? r.best : Math.max(r.best ?? e.score, e.score),
            cost: e.cost,
            said: e.said ?? r.said,
          }
        }
        break
      }
      case 'taskDone':
        delete d.running[e.task.index]
        d.finished = [...d.finished, e.task]
        break
      case 'tmEnd':
        d.status = e.cancelled ? 'cancelled' : 'done'
        d.resultsDir = e.resultsDir
        d.running = {}
        break
      case 'problem':
        if (e.level !== 'info' && d.problems.length < MAX_PROBLEMS) d.problems = [...d.problems, e.message]
        break
      default:
        assertNever(e)
    }
  }
  const lanes = { ...session.lanes }
  for (const [key, d] of touched) lanes[key] = d
  return { ...session, lanes, error: sessionProblem ?? session.error }
}
