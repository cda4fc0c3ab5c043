/**
 * Runs the Controller on the same stub the fixture tree was written from and
 * compares every file with superred's, byte for byte once ids and clock
 * readings are masked: same shapes, same order, same float formatting.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { scopeOf } from '../tags'
import { Controller } from '../engine/controller'
import { SecurityClaim, targetFactory } from '../engine/target'
import { fixtureEvaluation, ScriptedOptimizer, ScriptedTask, StubTarget, stubForest } from '../engine/testkit'
import { MemoryStorage } from './memoryStorage'

const FIXTURE = join(__dirname, '..', '..', '..', 'e2e', 'fixtures', 'superred-results-example')
const DIR = 'scripted__stub-agent__leak__no-llm-44a31aa2'
const FILES = [
  'experiments.json',
  `${DIR}/manifest.json`,
  `${DIR}/result.json`,
  `${DIR}/tasks/00001__leak_the_secret/task.json`,
  `${DIR}/tasks/00001__leak_the_secret/iterations.json`,
  `${DIR}/tasks/00001__leak_the_secret/trajectories/run_00001.json`,
  `${DIR}/tasks/00001__leak_the_secret/trajectories/run_00002.json`,
]

/** Masks what differs between any two runs: uuids, clock readings, durations. */
function mask(text: string): string {
  return text
    .replace(/"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"/g, '"<uuid>"')
    .replace(/"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?(\+00:00)?"/g, (_, __, utc) => (utc ? '"<utc>"' : '"<local>"'))
    .replace(/"duration_s": [0-9.e+-]+/g, '"duration_s": <s>')
}

describe('conformance with a tree superred wrote', () => {
  it('writes the same files as superred for the same experiment', async () => {
    const forest = stubForest()
    const storage = new MemoryStorage()
    const controller = new Controller({
      optimizerFactory: () => new ScriptedOptimizer(),
      targetFactory: targetFactory(() => new StubTarget(forest)),
      securityClaim: SecurityClaim.fromTasks([new ScriptedTask('leak the secret', () => fixtureEvaluation(forest))]),
      scope: scopeOf([forest.user]),
      readOnly: scopeOf([forest.system]),
      maxRunsPerTask: 2,
      attackerLabel: 'scripted',
      targetLabel: 'stub-agent',
      claimLabel: 'leak',
      storage,
    })
    expect(controller.label).toBe(DIR)
    await controller.run()
    for (const file of FILES) {
      const theirs = readFileSync(join(FIXTURE, file), 'utf8')
      const ours = await storage.readText(file)
      expect(mask(ours), file).toBe(mask(theirs).trimEnd())
    }
    // redscope's extras sit beside them.
    expect(await storage.exists(`${DIR}/domain.json`)).toBe(true)
    expect(await storage.exists(`${DIR}/tasks/00001__leak_the_secret/attacker.json`)).toBe(true)
    // What the attacker saw is stored once, in run_NNNNN.json: derived on read (attackerView.ts), as for superred's own trees.
    expect(await storage.exists(`${DIR}/tasks/00001__leak_the_secret/trajectories/run_00001.attacker.json`)).toBe(false)
  })
})
