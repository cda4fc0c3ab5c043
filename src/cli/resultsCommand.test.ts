// @vitest-environment node
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { NodeFsStorage } from '../adapters/storage/nodeFsStorage'
import { Controller } from '../core/engine/controller'
import { SecurityClaim, targetFactory } from '../core/engine/target'
import { fixtureEvaluation, ScriptedOptimizer, ScriptedTask, StubTarget, stubForest } from '../core/engine/testkit'
import { scopeOf } from '../core/tags'
import { main } from './main'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'redscope-results-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('redscope results', () => {
  it('lists every task the manifest lists, a skipped one (no folder, no task.json) included', async () => {
    const forest = stubForest()
    await new Controller({
      optimizerFactory: () => new ScriptedOptimizer(),
      targetFactory: targetFactory(() => new StubTarget(forest)),
      securityClaim: SecurityClaim.fromTasks([
        new ScriptedTask('runs', () => fixtureEvaluation(forest)),
        new ScriptedTask('skips', () => fixtureEvaluation(forest)),
      ]),
      scope: (task) => (task.goal.description === 'skips' ? new Set() : scopeOf([forest.user])),
      scopeLabel: 'only-some',
      maxRunsPerTask: 1,
      storage: new NodeFsStorage(dir),
    }).run()
    let out = ''
    const code = await main(['results', dir], { stdout: (s) => void (out += s), stderr: () => undefined })
    expect(code).toBe(0)
    const [experiment] = JSON.parse(out).experiments
    expect(experiment.tasks).toEqual([
      expect.objectContaining({ index: 1, goal: 'runs', n_runs: 1, dir: expect.stringMatching(/^tasks\/00001__/) }),
      { index: 2, goal: 'skips', status: 'skipped', stop_reason: 'skipped', n_runs: 0, best_score: 0, success: false, dir: null },
    ])
  })
})
