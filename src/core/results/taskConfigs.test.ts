import { Controller } from '../engine/controller'
import { SecurityClaim, targetFactory, type Task } from '../engine/target'
import { fixtureEvaluation, ScriptedOptimizer, ScriptedTask, StubTarget, stubForest } from '../engine/testkit'
import { scopeOf } from '../tags'
import { MemoryStorage } from './memoryStorage'
import { configText, readExperiment } from './reader'

function runWith(tasks: Task[]) {
  const forest = stubForest()
  const storage = new MemoryStorage()
  const controller = new Controller({
    optimizerFactory: () => new ScriptedOptimizer(),
    targetFactory: targetFactory(() => new StubTarget(forest)),
    securityClaim: SecurityClaim.fromTasks(tasks),
    scope: scopeOf([forest.user]),
    maxRunsPerTask: 1,
    storage,
  })
  return { storage, forest, run: () => controller.run() }
}

describe('task_configs.json (redscope extra)', () => {
  it('records which configuration each task ran with, so tasks sharing a goal can be told apart', async () => {
    const forest = stubForest()
    const tasks = ['none', 'strict_filter'].map((defence) =>
      Object.assign(new ScriptedTask('same goal', () => fixtureEvaluation(forest)), { config: { defence } }),
    )
    const { storage, run } = runWith(tasks)
    const result = await run()
    const text = await storage.readText(`${result.resultsDir}/task_configs.json`)
    expect(JSON.parse(text)).toEqual({
      schema_version: 5,
      tasks: [
        { index: 1, goal: 'same goal', config: { defence: 'none' } },
        { index: 2, goal: 'same goal', config: { defence: 'strict_filter' } },
      ],
    })
    const exp = await readExperiment(storage, result.resultsDir!)
    expect(configText(exp.taskConfigs.get(2))).toBe('defence=strict_filter')
  })

  it('is not written when no task has a configuration (a plain superred-style tree stays as it was)', async () => {
    const forest = stubForest()
    const { storage, run } = runWith([new ScriptedTask('g', () => fixtureEvaluation(forest))])
    const result = await run()
    expect(await storage.exists(`${result.resultsDir}/task_configs.json`)).toBe(false)
    expect((await readExperiment(storage, result.resultsDir!)).taskConfigs.size).toBe(0)
  })
})
