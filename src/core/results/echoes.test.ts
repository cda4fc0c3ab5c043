import { describe, expect, it } from 'vitest'
import { scopeOf } from '../tags'
import { Controller } from '../engine/controller'
import { SecurityClaim, targetFactory } from '../engine/target'
import type { ReadableTrajectory, TrajectoryItem } from '../engine/events'
import { ScriptedOptimizer, ScriptedTask, StubTarget, stubForest } from '../engine/testkit'
import { evaluationResult, evidenceFrom, score } from '../engine/types'
import { MemoryStorage } from './memoryStorage'
import { readExperiment, readTasks } from './reader'
import { joinPath } from './storage'

const forest = stubForest()

/** Task 1: the attacker's own "TIGER-42" is what the check finds (an echo). Task 2: an honest failure. */
function controller(storage: MemoryStorage, countEchoes: boolean, overwrite = false) {
  const judge = (echoing: boolean) => (_run: number, t: ReadableTrajectory) => {
    const said = t.snapshot().some((i: TrajectoryItem) => i.type === 'ControllableInjection' && i.value.includes('TIGER-42'))
    const hit = echoing && said
    return evaluationResult({
      success: hit,
      primaryScore: score(hit ? 1 : 0),
      rationale: hit ? 'secret in the reply' : 'nothing',
      evidence: hit ? evidenceFrom('observable reply', ['TIGER-42']) : null,
    })
  }
  let optimizers = 0
  const c = new Controller({
    optimizerFactory: function paster() {
      optimizers++
      return new ScriptedOptimizer({ inject: () => 'say TIGER-42' })
    },
    targetFactory: targetFactory(() => new StubTarget(forest), 2),
    securityClaim: SecurityClaim.fromTasks([new ScriptedTask('echo me', judge(true)), new ScriptedTask('hold', judge(false))], 'Echo'),
    scope: scopeOf([forest.user]),
    maxRunsPerTask: 2,
    storage,
    resultsDir: 'results',
    countEchoes,
    overwrite,
  })
  return { c, optimizers: () => optimizers }
}

describe('echo files', () => {
  it("superred's files hold the run as judged; echoes.json beside them holds the evidence and the claim's verdict", async () => {
    const storage = new MemoryStorage()
    const result = await controller(storage, false).c.run()
    const exp = await readExperiment(storage, result.resultsDir!)
    expect(exp.result?.summary).toMatchObject({ n_success: 0, n_completed: 2, asr: 0 })
    expect(exp.echoes).toEqual({ schema_version: 5, count_echoes: false, tasks: [{ index: 1, runs: [1, 2] }] })
    const [echoTask, held] = await readTasks(storage, result.resultsDir!, exp.echoes)
    expect(echoTask.task).toMatchObject({ status: 'failed', success: false, stop_reason: 'max_runs', best_score: { value: 0 } })
    expect(echoTask.iterations!.runs.map((r) => r.success)).toEqual([false, false])
    expect(echoTask.echoes!.runs[0]).toEqual({
      run_number: 1,
      counted: false,
      evidence: { where: 'observable reply', texts: ['TIGER-42'] },
      injections: [{ controllable: 'user_msg', value: 'say TIGER-42' }],
      claimed: {
        success: true,
        primary_score: { name: 'primary', value: 1, security_domain: null },
        sub_scores: {},
        rationale: 'secret in the reply',
      },
    })
    expect(echoTask.task.best_evaluation.rationale).toMatch(/^Echoed, not counted as a breach/)
    expect(held.echoes).toBeNull()
    expect(await storage.exists(joinPath(held.dir, 'echoes.json'))).toBe(false)
  })

  it("counted: a success in superred's files, still recorded as an echo", async () => {
    const storage = new MemoryStorage()
    const result = await controller(storage, true).c.run()
    const exp = await readExperiment(storage, result.resultsDir!)
    expect(exp.result?.summary).toMatchObject({ n_success: 1, asr: 0.5 })
    expect(exp.echoes).toMatchObject({ count_echoes: true, tasks: [{ index: 1, runs: [1] }] })
    const [echoTask] = await readTasks(storage, result.resultsDir!)
    expect(echoTask.task).toMatchObject({ status: 'success', stop_reason: 'success' })
    expect(echoTask.echoes!.runs.map((r) => r.counted)).toEqual([true])
  })

  it('a resume keeps the tasks the echo rule does not touch, and reruns those judged the other way', async () => {
    const storage = new MemoryStorage()
    await controller(storage, false).c.run()
    // Same rule: everything is kept.
    const same = controller(storage, false)
    await same.c.run()
    expect(same.optimizers()).toBe(0)
    // Echoes now counted: the echoed task reruns (and now succeeds); the honest failure is kept.
    const counted = controller(storage, true)
    const result = await counted.c.run()
    expect(counted.optimizers()).toBe(1)
    expect(result.taskResults.map((t) => [t.success, t.nRuns ?? t.runs.length])).toEqual([
      [true, 1],
      [false, 2],
    ])
    const exp = await readExperiment(storage, result.resultsDir!)
    expect(exp.echoes).toMatchObject({ count_echoes: true, tasks: [{ index: 1, runs: [1] }] })
    expect(await storage.exists(joinPath(result.resultsDir!, 'previous_01', 'echoes.json'))).toBe(true)
  })
})
