/**
 * What a kept run holds: its times as milliseconds with Dates made when read,
 * and the evaluator's result made the engine's own without a copy when the
 * engine's constructor built it.
 */
import { describe, expect, it } from 'vitest'
import { scopeOf } from '../tags'
import { Controller } from './controller'
import { SecurityClaim, targetFactory } from './target'
import { fixtureEvaluation, ScriptedOptimizer, ScriptedTask, StubTarget, stubForest, type Judge } from './testkit'
import { ownedEvaluation, score, type EvaluationResult } from './types'

async function runsJudgedBy(judge: Judge) {
  const forest = stubForest()
  const controller = new Controller({
    optimizerFactory: () => new ScriptedOptimizer(),
    targetFactory: targetFactory(() => new StubTarget(forest)),
    securityClaim: SecurityClaim.fromTasks([new ScriptedTask('g', judge)]),
    scope: scopeOf([forest.user]),
    maxRunsPerTask: 2,
  })
  const before = Date.now()
  const result = await controller.run()
  return { runs: result.taskResults[0].runs, before, after: Date.now() }
}

describe('a recorded run', () => {
  it('reads its start and end as Dates made from its milliseconds, in order and within the task', async () => {
    const { runs, before, after } = await runsJudgedBy(() => fixtureEvaluation(stubForest()))
    expect(runs).toHaveLength(2)
    for (const run of runs) {
      expect(run.startedAt).toBeInstanceOf(Date)
      expect(run.endedAt).toBeInstanceOf(Date)
      expect(run.startedAt.getTime()).toBeGreaterThanOrEqual(before)
      expect(run.endedAt.getTime()).toBeGreaterThanOrEqual(run.startedAt.getTime())
      expect(run.endedAt.getTime()).toBeLessThanOrEqual(after)
    }
    expect(runs[1].startedAt.getTime()).toBeGreaterThanOrEqual(runs[0].endedAt.getTime())
  })

  it('keeps an evaluation the engine built as it is, and rebuilds a hand-built one (frozen, with defaults)', async () => {
    const shared = fixtureEvaluation(stubForest())
    const owned = await runsJudgedBy(() => shared)
    expect(owned.runs.map((r) => r.evaluation)).toEqual([shared, shared])
    expect(owned.runs[0].evaluation).toBe(shared)

    const handBuilt = { success: false, primaryScore: score(0.25), subScores: {} } as unknown as EvaluationResult
    const rebuilt = await runsJudgedBy(() => handBuilt)
    const evaluation = rebuilt.runs[0].evaluation
    expect(evaluation).not.toBe(handBuilt)
    expect(Object.isFrozen(evaluation)).toBe(true)
    expect(Object.isFrozen(evaluation.subScores)).toBe(true)
    expect(evaluation).toEqual({ success: false, primaryScore: handBuilt.primaryScore, subScores: {}, rationale: '' })
  })

  it('ownedEvaluation does not take a frozen look-alike for one the engine built: it is validated', () => {
    const forest = stubForest()
    const lookAlike = Object.freeze({ success: true, primaryScore: score(1, forest.user), subScores: Object.freeze({}), rationale: '' })
    expect(() => ownedEvaluation(lookAlike)).toThrow('primary_score must not carry a security_domain')
  })
})
