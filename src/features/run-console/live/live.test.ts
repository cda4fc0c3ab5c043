// @vitest-environment node
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { templateOptimizerFactory } from '../../../attackers'
import { claimFromFile, parseClaimFile } from '../../../claims'
import { Controller, runAll, targetFactory } from '../../../core/engine'
import { scopeOf } from '../../../core/tags'
import { ChatbotTarget } from '../../../reference-targets'
import { chatbotSurfaces } from '../../../reference-targets/chatbot/chatbotTarget'
import { batchReporter, type Schedule } from './batchReporter'
import { applyEvents, newSession } from './liveReducer'
import { laneOrder, laneTotals, sessionAttacker, sessionTotals } from './liveSelectors'
import type { LiveEvent, RunSession } from './liveTypes'

const claimFile = parseClaimFile(readFileSync('public/claims/chatbot-secret-leak.json', 'utf8'), 'chatbot-secret-leak.json')

function controllers() {
  const surfaces = chatbotSurfaces()
  const factory = targetFactory(() => new ChatbotTarget(surfaces), 2)
  return ['user', 'system_prompt'].map(
    (tag) =>
      new Controller({
        optimizerFactory: templateOptimizerFactory({ templates: ['{goal}'] }),
        targetFactory: factory,
        securityClaim: claimFromFile(claimFile),
        scope: scopeOf([surfaces.domain.get(tag)!]),
        maxRunsPerTask: 1,
        attackerLabel: 'template',
        targetLabel: 'chatbot',
      }),
  )
}

describe('live progress', () => {
  it('batches reporter events into few store updates and derives the dashboard totals from lanes', async () => {
    const cs = controllers()
    let session: RunSession = newSession({ id: 's', kind: 'sweep', title: 't', lanes: cs.map((c) => c.info()), now: 0 })
    expect(sessionTotals(session)).toMatchObject({ models: 2, tasks: 6, done: 0, running: 0, asr: null })
    const pending: Array<() => void> = []
    const schedule: Schedule = (flush) => pending.push(flush)
    let batches = 0
    let events = 0
    const { reporter, flush } = batchReporter(
      (batch) => {
        batches += 1
        events += batch.length
        session = applyEvents(session, batch)
      },
      schedule,
      () => 42,
    )
    const results = await runAll(cs, { reporter, concurrency: 2 })
    // Nothing reaches the store until a frame comes: the whole run was one scheduled flush.
    expect(batches).toBe(0)
    expect(pending).toHaveLength(1)
    pending[0]()
    flush()
    expect(batches).toBe(1)
    expect(events).toBeGreaterThan(20)
    const totals = sessionTotals(session)
    expect(totals).toMatchObject({ models: 2, modelsDone: 2, tasks: 6, done: 6, running: 0, successes: 1, completed: 6, errors: 0 })
    expect(totals.asr).toBeCloseTo(1 / 6)
    const userLane = session.lanes[cs[0].info().key]
    expect(userLane.status).toBe('done')
    expect(userLane.resultsDir).toBeNull()
    expect([...userLane.finished].sort((a, b) => a.index - b.index).map((t) => t.status)).toEqual(['success', 'failed', 'failed'])
    expect(laneTotals(userLane).asr).toBeCloseTo(1 / 3)
    expect(results.map((r) => r.taskResults.filter((t) => t.success).length)).toEqual([1, 0])
    // The dashboard names the attacker every lane shares: a rate that held is said with it.
    expect(sessionAttacker(session)).toBe(cs[0].info().attacker)
  })

  it('keeps warnings as lane problems, leaves a task’s own errors to its row, and drops everything once cancelled', () => {
    const got: LiveEvent[] = []
    let cancelled = false
    const { reporter, flush } = batchReporter(
      (b) => got.push(...b),
      () => {},
      () => 0,
      () => cancelled,
    )
    const info = controllers()[0].info()
    reporter.diagnostic!(info, 'warning', 'exceeded task_time_cap_s=1, cancelled after 2 run(s)\nmore', 1)
    reporter.diagnostic!(info, 'error', 'unexpected error during run 1, stopping task: boom', 1)
    reporter.diagnostic!(info, 'error', 'could not write domain.json')
    cancelled = true
    reporter.diagnostic!(info, 'error', 'optimizer task raised: Error: cancelled by the user')
    flush()
    expect(got.map((e) => (e.t === 'problem' ? e.message : e.t))).toEqual([
      'exceeded task_time_cap_s=1, cancelled after 2 run(s)',
      'could not write domain.json',
    ])
  })

  it('tracks running tasks beneath their lane, their runs, best score and cost, and touches only the lanes an event names', () => {
    const lanes = [
      {
        key: 'a',
        attacker: 'x',
        target: 't',
        claim: 'c',
        model: null,
        scope: ['user'],
        readOnly: [],
        scopeLabel: null,
        nTasks: 2,
        maxRunsPerTask: 3,
      },
      {
        key: 'b',
        attacker: 'x',
        target: 't',
        claim: 'c',
        model: null,
        scope: ['system'],
        readOnly: [],
        scopeLabel: null,
        nTasks: 2,
        maxRunsPerTask: 3,
      },
    ]
    const s0 = newSession({ id: 's', kind: 'sweep', title: 't', lanes, now: 0 })
    const batch: LiveEvent[] = [
      { t: 'tmStart', key: 'a' },
      { t: 'taskStart', key: 'a', index: 1, goal: 'g', at: 5 },
      { t: 'run', key: 'a', index: 1, score: 0.25, cost: 0.01, said: 'first try' },
      { t: 'run', key: 'a', index: 1, score: 0.75, cost: 0.03, said: 'second try' },
      { t: 'run', key: 'a', index: 1, score: null, cost: 0.04, said: null },
      { t: 'turn', key: 'a', index: 1, turn: 1 },
      { t: 'turn', key: 'a', index: 1, turn: 2 },
      { t: 'problem', key: 'a', level: 'error', message: 'POST /sessions: boom' },
    ]
    const s1 = applyEvents(s0, batch)
    expect(s1.lanes.b).toBe(s0.lanes.b)
    // A run that injected nothing leaves the last words the attacker did say; run 4 under way at its second turn.
    expect(s1.lanes.a.running[1]).toEqual({
      index: 1,
      goal: 'g',
      runs: 3,
      turn: 2,
      best: 0.75,
      cost: 0.04,
      startedAt: 5,
      said: 'second try',
    })
    // A finished run resets the count.
    expect(applyEvents(s1, [{ t: 'run', key: 'a', index: 1, score: 0.1, cost: 0.05, said: null }]).lanes.a.running[1].turn).toBe(0)
    expect(s1.lanes.a.problems).toEqual(['POST /sessions: boom'])
    expect(sessionTotals(s1)).toMatchObject({ running: 1, cost: 0.04, modelsRunning: 1 })
    expect(laneOrder(s1)).toEqual(['a', 'b'])
    const s2 = applyEvents(s1, [
      {
        t: 'taskDone',
        key: 'a',
        task: {
          index: 1,
          goal: 'g',
          stopReason: 'error',
          status: 'error',
          success: false,
          best: 0.75,
          runs: 3,
          cost: 0.04,
          error: 'boom',
          kept: false,
          evaluation: null,
          said: 'second try',
        },
      },
      { t: 'tmStart', key: 'b' },
      { t: 'tmEnd', key: 'a', cancelled: true, resultsDir: 'x-1' },
    ])
    expect(s2.lanes.a).toMatchObject({ status: 'cancelled', running: {}, resultsDir: 'x-1' })
    expect(sessionTotals(s2)).toMatchObject({ done: 1, errors: 1, completed: 0, asr: null, modelsDone: 1 })
    expect(laneOrder(s2)).toEqual(['b', 'a'])
    expect(applyEvents(s2, [])).toBe(s2)
  })
})
