import { describe, expect, it } from 'vitest'
import { scopeOf } from '../tags'
import { MemoryStorage } from '../results/memoryStorage'
import { Controller, type ControllerOptions } from './controller'
import { SecurityClaim, targetFactory } from './target'
import { fixtureEvaluation, ScriptedOptimizer, ScriptedTask, StubTarget, stubForest, type Judge, type OptimizerScript } from './testkit'

function build(judge: (f: ReturnType<typeof stubForest>) => Judge, script: OptimizerScript, options: Partial<ControllerOptions>) {
  const forest = stubForest()
  const targets: StubTarget[] = []
  const controller = new Controller({
    optimizerFactory: () => new ScriptedOptimizer(script),
    targetFactory: targetFactory(() => {
      const t = new StubTarget(forest)
      targets.push(t)
      return t
    }),
    securityClaim: SecurityClaim.fromTasks([new ScriptedTask('leak the secret', judge(forest))]),
    scope: scopeOf([forest.user]),
    maxRunsPerTask: 4,
    cleanupGraceMs: 200,
    ...options,
  })
  return { controller, targets }
}

describe("semantics 'superred-0.3.0' (the published superred, checked on its installed source)", () => {
  const succeedsOnRun2 =
    (f: ReturnType<typeof stubForest>): Judge =>
    (run) =>
      fixtureEvaluation(f, run === 2, run)

  it('a success does not stop the task: every run is reset, the optimizer decides, and one more reset follows the loop', async () => {
    const { controller, targets } = build(succeedsOnRun2, { done: (run) => run === 3 }, { semantics: 'superred-0.3.0' })
    const [tr] = (await controller.run()).taskResults
    expect(tr.stopReason).toBe('done')
    expect(tr.success).toBe(true)
    expect(tr.runs.map((r) => r.evaluation.success)).toEqual([false, true, false])
    // After runs 1, 2, 3, then the post-task reset of 0.3.0.
    expect(targets[0].resets).toBe(4)
  })

  it("the default ('redscope') stops on the first success, without a reset", async () => {
    const { controller, targets } = build(succeedsOnRun2, { done: (run) => run === 3 }, {})
    const [tr] = (await controller.run()).taskResults
    expect(tr.stopReason).toBe('success')
    expect(targets[0].resets).toBe(1)
    expect(controller.resultsSchema).toBe(5)
  })

  it('has no task time cap, and writes results schema 4 by default', () => {
    expect(() => build(succeedsOnRun2, {}, { semantics: 'superred-0.3.0', taskTimeCapS: 5 })).toThrow(
      'task_time_cap_s does not exist in superred 0.3.0',
    )
    expect(build(succeedsOnRun2, {}, { semantics: 'superred-0.3.0' }).controller.resultsSchema).toBe(4)
    expect(build(succeedsOnRun2, {}, { semantics: 'superred-0.3.0', resultsSchema: 5 }).controller.resultsSchema).toBe(5)
  })

  it('schema 4 files: no declined_by, task_time_cap_s, n_measured_runs or timeout counts; schema_version 4 everywhere', async () => {
    const storage = new MemoryStorage()
    const { controller } = build(succeedsOnRun2, { done: (run) => run === 2 }, { semantics: 'superred-0.3.0', storage })
    const result = await controller.run()
    const dir = result.resultsDir!
    const read = async (p: string) => JSON.parse(await storage.readText(`${dir}/${p}`))
    const manifest = await read('manifest.json')
    expect(manifest.schema_version).toBe(4)
    expect(manifest.experiment).not.toHaveProperty('task_time_cap_s')
    expect(manifest.summary).not.toHaveProperty('n_timeout')
    const task = await read(`${manifest.tasks[0].dir}/task.json`)
    expect(task.schema_version).toBe(4)
    expect(task).not.toHaveProperty('task_time_cap_s')
    expect(task).not.toHaveProperty('n_measured_runs')
    expect(task.stop_reason).toBe('done')
    const run = await read(`${manifest.tasks[0].dir}/trajectories/run_00001.json`)
    expect(run.schema_version).toBe(4)
    const declines = run.trajectory.filter((i: { type: string }) => i.type === 'ControllableNoInjection')
    expect(declines.length).toBeGreaterThan(0)
    for (const d of declines) expect(d).not.toHaveProperty('declined_by')
    expect((await read('result.json')).schema_version).toBe(4)
    expect(JSON.parse(await storage.readText('experiments.json')).experiments[0].experiment).not.toHaveProperty('task_time_cap_s')
  })
})
