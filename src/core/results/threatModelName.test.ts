import { Controller } from '../engine/controller'
import { SecurityClaim, targetFactory } from '../engine/target'
import { fixtureEvaluation, ScriptedOptimizer, ScriptedTask, StubTarget, stubForest } from '../engine/testkit'
import { scopeOf } from '../tags'
import { ExperimentsIndexFile } from './format'
import { MemoryStorage } from './memoryStorage'
import { listExperiments, readExperiment } from './reader'

async function runNamed(name: string | null) {
  const forest = stubForest()
  const storage = new MemoryStorage()
  const controller = new Controller({
    optimizerFactory: () => new ScriptedOptimizer(),
    targetFactory: targetFactory(() => new StubTarget(forest)),
    securityClaim: SecurityClaim.fromTasks([new ScriptedTask('g', () => fixtureEvaluation(forest))]),
    scope: scopeOf([forest.user]),
    maxRunsPerTask: 1,
    storage,
    threatModelName: name,
  })
  const result = await controller.run()
  return {
    storage,
    dir: result.resultsDir!,
    unnamed: new Controller({
      optimizerFactory: () => new ScriptedOptimizer(),
      targetFactory: targetFactory(() => new StubTarget(forest)),
      securityClaim: SecurityClaim.fromTasks([new ScriptedTask('g', () => fixtureEvaluation(forest))]),
      scope: scopeOf([forest.user]),
      maxRunsPerTask: 1,
    }).label,
  }
}

describe("a saved threat model's name travels with its results (threat_model.json, redscope extra)", () => {
  it('is written beside the results and repeated in the experiments.json row, without changing the folder', async () => {
    const { storage, dir, unnamed } = await runNamed('Insider with inbox access')
    expect(dir).toBe(unnamed)
    expect(JSON.parse(await storage.readText(`${dir}/threat_model.json`))).toEqual({ schema_version: 5, name: 'Insider with inbox access' })
    const index = ExperimentsIndexFile.parse(JSON.parse(await storage.readText('experiments.json')))
    expect(index.experiments[0].threat_model_name).toBe('Insider with inbox access')
    expect((await readExperiment(storage, dir)).threatModelName).toBe('Insider with inbox access')
    // A tree whose index lost the row (an interrupted write) still names it, from the folder.
    await storage.remove('experiments.json')
    expect((await listExperiments(storage))[0].threat_model_name).toBe('Insider with inbox access')
  })

  it('is absent for a threat model that was not saved under a name: the tree stays as superred writes it', async () => {
    const { storage, dir } = await runNamed(null)
    expect(await storage.exists(`${dir}/threat_model.json`)).toBe(false)
    expect(await storage.readText('experiments.json')).not.toContain('threat_model_name')
    expect((await readExperiment(storage, dir)).threatModelName).toBeNull()
    expect((await listExperiments(storage))[0].threat_model_name).toBeUndefined()
  })
})
