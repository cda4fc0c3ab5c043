import { getEventListeners } from 'node:events'
import { describe, expect, it } from 'vitest'
import { scopeOf } from '../tags'
import { Controller } from './controller'
import { runAll } from './runAll'
import { SecurityClaim, targetFactory } from './target'
import { fixtureEvaluation, ScriptedOptimizer, ScriptedTask, StubTarget, stubForest } from './testkit'

function controller(label: string, delayMs: number, hang = false) {
  const forest = stubForest()
  return new Controller({
    optimizerFactory: () => new ScriptedOptimizer(),
    targetFactory: targetFactory(() => new StubTarget(forest, () => (hang ? [{ kind: 'hang' }] : []))),
    securityClaim: SecurityClaim.fromTasks([
      new ScriptedTask(label, async () => {
        await new Promise((r) => setTimeout(r, delayMs))
        return fixtureEvaluation(forest, true)
      }),
    ]),
    scope: scopeOf([forest.user]),
    attackerLabel: label,
    cleanupGraceMs: 50,
  })
}

describe('runAll', () => {
  it('caps how many threat models run at once and returns results in input order', async () => {
    const controllers = [controller('a', 40), controller('b', 5), controller('c', 20), controller('d', 1)]
    let running = 0
    let peak = 0
    const ends: string[] = []
    const results = await runAll(controllers, {
      concurrency: 2,
      reporter: {
        threatModelStart: () => {
          running++
          peak = Math.max(peak, running)
        },
        threatModelEnd: (info) => {
          running--
          ends.push(info.attacker)
        },
      },
    })
    expect(peak).toBe(2)
    expect(results.map((r) => r.taskResults[0].task.goal.description)).toEqual(['a', 'b', 'c', 'd'])
    expect(ends).not.toEqual(['a', 'b', 'c', 'd'])
    expect(await runAll([])).toEqual([])
  })

  it('a cancelled sweep returns a cancelled result for every threat model', async () => {
    const abort = new AbortController()
    const pending = runAll([controller('a', 1, true), controller('b', 1, true)], { concurrency: 1, signal: abort.signal })
    setTimeout(() => abort.abort(), 20)
    const results = await pending
    expect(results.map((r) => [r.cancelled, r.taskResults.length])).toEqual([
      [true, 0],
      [true, 0],
    ])
  })

  it("keeps the sweep's one cancel signal to a listener or two, however many threat models and tasks wait or run", async () => {
    const forest = stubForest()
    const wide = (label: string) =>
      new Controller({
        optimizerFactory: () => new ScriptedOptimizer(),
        targetFactory: targetFactory(() => new StubTarget(forest), 4),
        securityClaim: SecurityClaim.fromTasks(
          Array.from(
            { length: 8 },
            (_, i) =>
              new ScriptedTask(`${label} ${i}`, async () => {
                await new Promise((r) => setTimeout(r, 1))
                return fixtureEvaluation(forest, false)
              }),
          ),
        ),
        scope: scopeOf([forest.user]),
        attackerLabel: label,
        maxRunsPerTask: 1,
      })
    const cancel = new AbortController()
    let most = 0
    // 8 threat models at once, each with 4 tasks running and 4 waiting; 32 more threat models waiting.
    const results = await runAll(
      Array.from({ length: 40 }, (_, i) => wide(`m${i}`)),
      {
        concurrency: 8,
        signal: cancel.signal,
        reporter: {
          taskStart: () => {
            most = Math.max(most, getEventListeners(cancel.signal, 'abort').length)
          },
        },
      },
    )
    expect(results.every((r) => r.taskResults.length === 8 && !r.cancelled)).toBe(true)
    expect(most).toBeGreaterThan(0)
    expect(most).toBeLessThanOrEqual(2)
  })
})
