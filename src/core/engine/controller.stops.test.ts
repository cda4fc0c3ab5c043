import { describe, expect, it } from 'vitest'
import { scopeOf } from '../tags'
import { BudgetExhaustedError, CostCappedLLMClient, type LLMClientFactory } from './budget'
import { Controller, type ControllerOptions } from './controller'
import type { Optimizer } from './optimizer'
import type { TaskResult } from './outcomes'
import { SecurityClaim, targetFactory, type Target } from './target'
import {
  fixtureEvaluation,
  ScriptedOptimizer,
  ScriptedTask,
  StubTarget,
  stubForest,
  type Judge,
  type OptimizerScript,
  type Step,
} from './testkit'
import { evaluationResult, score } from './types'

interface Setup {
  judge?: Judge
  script?: OptimizerScript
  steps?: (run: number) => readonly Step[]
  target?: (t: StubTarget) => void
  options?: Partial<ControllerOptions>
  goals?: string[]
}

function build(s: Setup = {}) {
  const forest = stubForest()
  const targets: StubTarget[] = []
  const optimizers: ScriptedOptimizer[] = []
  const judge = s.judge ?? (() => fixtureEvaluation(forest))
  const tasks = (s.goals ?? ['leak the secret']).map((g) => new ScriptedTask(g, judge))
  const controller = new Controller({
    optimizerFactory: () => {
      const o = new ScriptedOptimizer(s.script)
      optimizers.push(o)
      return o
    },
    targetFactory: targetFactory(() => {
      const t = new StubTarget(forest, s.steps)
      s.target?.(t)
      targets.push(t)
      return t
    }),
    securityClaim: SecurityClaim.fromTasks(tasks),
    scope: scopeOf([forest.user]),
    maxRunsPerTask: 3,
    cleanupGraceMs: 200,
    ...s.options,
  })
  return { forest, targets, optimizers, tasks, controller }
}

const only = async (s: Setup) => {
  const b = build(s)
  const result = await b.controller.run()
  return { ...b, result, tr: result.taskResults[0] }
}

/** An in-process backend with a fixed per-call usage; the cap accounting is the real client. */
const pricedFactory =
  (callCost = 0.4): LLMClientFactory =>
  (config, cap, signal) =>
    new CostCappedLLMClient({
      model: config.model,
      costCapUsd: cap,
      signal,
      priceTable: { priced: { inputPerMillion: callCost * 1e6, outputPerMillion: 0 } },
      backend: { chat: async () => ({ content: 'ok', model: config.model, usage: { promptTokens: 1, completionTokens: 0 } }) },
    })

describe('stop reasons', () => {
  it('max_runs: the loop runs out; reset after every run that is not successful', async () => {
    const { tr, targets } = await only({})
    expect(tr.stopReason).toBe('max_runs')
    expect(tr.runs.map((r) => [r.runNumber, r.evaluated, r.errored, r.done])).toEqual([
      [1, true, false, false],
      [2, true, false, false],
      [3, true, false, false],
    ])
    expect(targets[0].resets).toBe(3)
    expect(targets[0].teardowns).toBe(1)
  })

  it('success: the claim decides, before done and without a reset', async () => {
    const forest = stubForest()
    const { tr, targets } = await only({ judge: (run) => fixtureEvaluation(forest, run === 2, run), script: { done: (run) => run === 2 } })
    expect(tr.stopReason).toBe('success')
    expect(tr.success).toBe(true)
    expect(tr.runs).toHaveLength(2)
    expect(targets[0].resets).toBe(1)
  })

  it('done: the optimizer answers RunEnd with done=true (after the reset)', async () => {
    const { tr, targets } = await only({ script: { done: (run) => run === 2 } })
    expect(tr.stopReason).toBe('done')
    expect(tr.runs.map((r) => r.done)).toEqual([false, true])
    expect(targets[0].resets).toBe(2)
  })

  it('error: a target that throws mid-run keeps the partial trajectory as an errored run', async () => {
    const { tr, targets } = await only({
      steps: (run) =>
        run === 2
          ? [
              { kind: 'pre', controllable: 'user_msg', request: 'hi' },
              { kind: 'throw', message: 'target broke' },
            ]
          : [{ kind: 'pre', controllable: 'user_msg', request: 'hi' }],
    })
    expect(tr.stopReason).toBe('error')
    expect(tr.runs).toHaveLength(2)
    const failed = tr.runs[1]
    expect([failed.evaluated, failed.errored]).toEqual([false, true])
    expect(failed.evaluation.rationale).toBe('Run 2 failed: Error: target broke')
    expect(failed.evaluation.primaryScore.value).toBe(0)
    expect(failed.trajectory.map((i) => i.type)).toEqual(['ControllablePreCallEvent', 'ControllableInjection'])
    expect(tr.error).toMatch(/^Error: target broke\n\s+at /)
    expect(tr.bestScore.value).toBe(0.5) // the judged run 1, not the errored zero
    expect(targets[0].teardowns).toBe(1)
  })

  it('error: an optimizer that throws rejects the send, the run errors, the error names it', async () => {
    const { tr, optimizers } = await only({
      script: { failOn: (e, run) => (run === 1 && e.type === 'ControllablePreCallEvent' ? 'optimizer broke' : null) },
    })
    expect(tr.stopReason).toBe('error')
    expect(tr.runs).toHaveLength(1)
    expect(tr.runs[0].evaluation.rationale).toBe('Run 1 failed: Error: optimizer broke')
    expect(tr.error).toContain('optimizer broke')
    expect(optimizers[0].tornDown).toBe(true)
    expect(optimizers[0].pastTrajectories).toHaveLength(0)
  })

  it('error: an optimizer whose run() dies in the background poisons the channel; the send raises its error', async () => {
    const forest = stubForest()
    class Dying extends ScriptedOptimizer {
      override async run(): Promise<void> {
        throw new SyntaxError('optimizer loop died')
      }
    }
    const controller = new Controller({
      optimizerFactory: () => new Dying(),
      targetFactory: targetFactory(() => new StubTarget(forest)),
      securityClaim: SecurityClaim.fromTasks([new ScriptedTask('g', () => fixtureEvaluation(forest))]),
      scope: scopeOf([forest.user]),
    })
    const tr = (await controller.run()).taskResults[0]
    expect(tr.stopReason).toBe('error')
    expect(tr.runs[0].evaluation.rationale).toBe('Run 1 failed: SyntaxError: optimizer loop died')
    expect(tr.runs[0].trajectory).toEqual([]) // RunStart is never recorded; nothing ran
  })

  it('error: an evaluator that throws fails the run after the target finished', async () => {
    const { tr } = await only({
      judge: (run) => {
        if (run === 1) throw new RangeError('judge broke')
        return fixtureEvaluation(stubForest())
      },
    })
    expect(tr.stopReason).toBe('error')
    expect(tr.runs[0].evaluation.rationale).toBe('Run 1 failed: RangeError: judge broke')
    expect(tr.runs[0].trajectory.at(-1)?.type).toBe('ObservableEvent')
    expect(tr.bestEvaluation.rationale).toBe('Unexpected error before first run completed.')
  })

  it('error: an evaluator returning a primary score with a domain fails like the reference constructor', async () => {
    const forest = stubForest()
    const { tr } = await only({ judge: () => ({ success: true, primaryScore: score(1, forest.user), subScores: {}, rationale: '' }) })
    expect(tr.stopReason).toBe('error')
    expect(tr.runs[0].evaluation.rationale).toMatch(
      /^Run 1 failed: ValueError: primary_score must not carry a security_domain \(got SecurityDomainTag\(name='user', parent=None\)\)/,
    )
  })

  it('error: a failing reset keeps the judged run', async () => {
    const { tr } = await only({
      target: (t) => {
        t.failReset = true
      },
    })
    expect(tr.stopReason).toBe('error')
    expect(tr.runs.map((r) => r.evaluated)).toEqual([true])
    expect(tr.error).toMatch(/^Error: reset failed/)
  })

  it('error before the loop: configure, create and initialize failures give an empty result', async () => {
    const forest = stubForest()
    const configureFails = new Controller({
      optimizerFactory: () => new ScriptedOptimizer(),
      targetFactory: targetFactory(() => new StubTarget(forest)),
      securityClaim: SecurityClaim.fromTasks([
        new ScriptedTask(
          'g',
          () => fixtureEvaluation(forest),
          () => {
            throw new Error('bad config')
          },
        ),
      ]),
      scope: scopeOf([forest.user]),
    })
    const a = (await configureFails.run()).taskResults[0]
    expect([a.stopReason, a.runs.length, a.bestEvaluation.rationale]).toEqual(['error', 0, 'Unexpected error before run loop started.'])
    const createFails = new Controller({
      optimizerFactory: () => new ScriptedOptimizer(),
      targetFactory: targetFactory(() => {
        throw new Error('no target')
      }),
      securityClaim: SecurityClaim.fromTasks([new ScriptedTask('g', () => fixtureEvaluation(forest))]),
      scope: scopeOf([forest.user]),
    })
    const b = (await createFails.run()).taskResults[0]
    expect([b.stopReason, b.error?.split('\n')[0], [...b.scope].map((t) => t.name)]).toEqual(['error', 'Error: no target', ['user']])
    const { tr } = await only({
      script: {
        init: async () => {
          throw new Error('init broke')
        },
      },
    })
    expect([tr.stopReason, tr.error?.split('\n')[0]]).toEqual(['error', 'Error: init broke'])
  })

  it('budget_exhausted in initialize: empty result, the reference rationale', async () => {
    const { tr } = await only({
      script: {
        init: async (llm) => {
          await llm.complete([{ role: 'user', content: 'warm up' }])
        },
      },
    })
    expect(tr.stopReason).toBe('budget_exhausted')
    expect(tr.bestEvaluation.rationale).toBe('LLM budget exhausted before first run completed.')
  })

  it('budget_exhausted mid-task: the partial run is dropped, the error slot is filled from the optimizer task', async () => {
    let calls = 0
    // An optimizer that spends on each injection:
    class Spender extends ScriptedOptimizer {
      override async onEvent(event: Parameters<ScriptedOptimizer['onEvent']>[0]) {
        if (event.type === 'ControllablePreCallEvent') {
          calls++
          await this.llm.complete([{ role: 'user', content: 'x' }])
        }
        return super.onEvent(event)
      }
    }
    const forest = stubForest()
    const controller = new Controller({
      optimizerFactory: (): Optimizer => new Spender(),
      targetFactory: targetFactory(() => new StubTarget(forest, () => [{ kind: 'pre', controllable: 'user_msg', request: 'hi' }])),
      securityClaim: SecurityClaim.fromTasks([new ScriptedTask('g', () => fixtureEvaluation(forest))]),
      scope: scopeOf([forest.user]),
      llmConfig: { model: 'priced', apiKey: 'sk' },
      llmClientFactory: pricedFactory(0.4),
      taskCostCapUsd: 1,
      maxRunsPerTask: 10,
    })
    const spent = (await controller.run()).taskResults[0]
    expect(spent.stopReason).toBe('budget_exhausted')
    expect(calls).toBe(4) // 0, 0.4, 0.8 start; the 4th sees 1.2 ≥ 1 and raises before calling
    expect(spent.runs).toHaveLength(3) // the 4th, partial run is not recorded
    expect(spent.llmUsage.calls).toBe(3)
    expect(spent.llmUsage.cost).toBeCloseTo(1.2)
    expect(spent.runs.map((r) => r.runUsageDelta.calls)).toEqual([1, 1, 1])
    expect(spent.error).toMatch(/^BudgetExhaustedError: Cost cap reached: \$1\.200000\/\$1\.000000/)
  })

  it('budget_exhausted under concurrent calls: only calls whose reservations fit start, the rest raise before calling', async () => {
    const forest = stubForest()
    let started = 0
    const slowFactory: LLMClientFactory = (config, cap, signal) =>
      new CostCappedLLMClient({
        model: config.model,
        costCapUsd: cap,
        signal,
        priceTable: { m: { inputPerMillion: 0, outputPerMillion: 1e6 } },
        backend: {
          chat: async () => {
            started++
            await new Promise((r) => setTimeout(r, 20))
            return { content: '', model: 'm', usage: { promptTokens: 0, completionTokens: 1 } }
          },
        },
      })
    const fanOut: OptimizerScript = {
      init: async (llm) => {
        const results = await Promise.allSettled(
          Array.from({ length: 6 }, () => llm.complete([{ role: 'user', content: 'x' }], { maxTokens: 1 })),
        )
        const refused = results.find((r) => r.status === 'rejected')
        if (refused) throw (refused as PromiseRejectedResult).reason
      },
    }
    const controller = new Controller({
      optimizerFactory: () => new ScriptedOptimizer(fanOut),
      targetFactory: targetFactory(() => new StubTarget(forest)),
      securityClaim: SecurityClaim.fromTasks([new ScriptedTask('g', () => fixtureEvaluation(forest))]),
      scope: scopeOf([forest.user]),
      llmConfig: { model: 'm', apiKey: 'k' },
      llmClientFactory: slowFactory,
      taskCostCapUsd: 3,
    })
    const tr = (await controller.run()).taskResults[0]
    expect(started).toBe(3) // $1 reserved each: the 4th sees $3 committed and never calls
    expect(tr.stopReason).toBe('budget_exhausted')
    expect(tr.llmUsage).toEqual({ calls: 3, cost: 3 })
  })

  it('timeout: the wall-clock cap keeps the judged runs and tears everything down', async () => {
    const { tr, targets, optimizers } = await only({
      options: { taskTimeCapS: 0.15, maxRunsPerTask: 100 },
      steps: (run) => (run === 3 ? [{ kind: 'hang' }] : [{ kind: 'pre', controllable: 'user_msg', request: 'hi' }]),
    })
    expect(tr.stopReason).toBe('timeout')
    // Two judged runs, and the third, cut by the cap, recorded unjudged.
    expect(tr.runs.map((r) => [r.runNumber, r.evaluated, r.errored])).toEqual([
      [1, true, false],
      [2, true, false],
      [3, false, false],
    ])
    expect(tr.bestScore.value).toBe(0.5)
    expect(tr.bestEvaluation.rationale).toBe('scripted')
    expect(targets[0].teardowns).toBe(1)
    expect(optimizers[0].tornDown).toBe(true)
  })

  it('a run cut by the cap is recorded once, unjudged, though its target returns after the cancellation', async () => {
    const b = build({
      options: { taskTimeCapS: 0.1, maxRunsPerTask: 100 },
      steps: (run) =>
        run === 2
          ? [{ kind: 'pre', controllable: 'user_msg', request: 'hi' }, { kind: 'hang' }]
          : [{ kind: 'pre', controllable: 'user_msg', request: 'hi' }],
    })
    const reported: string[] = []
    const result = await b.controller.run({
      reporter: {
        runComplete: (_, __, run) => reported.push(`run ${run.runNumber}`),
        diagnostic: (_, level, message) => reported.push(`${level} ${message}`),
      },
    })
    // The hanging target throws once the cap aborts it; the abandoned run stops there.
    await new Promise((r) => setTimeout(r, 50))
    const runs = result.taskResults[0].runs
    expect(runs.map((r) => r.runNumber)).toEqual([1, 2])
    expect(runs[1].evaluated).toBe(false)
    expect(runs[1].evaluation.rationale).toBe("Run 2 was cut short by the task's time cap after 1 turn: not judged.")
    // What the cut run did before the cap is kept: its pre-call and the answer.
    expect(runs[1].trajectory.map((it) => it.type)).toEqual([
      'ControllablePreCallEvent',
      expect.stringMatching(/^Controllable(No)?Injection$/),
    ])
    expect(reported.filter((line) => !line.startsWith('warning exceeded task_time_cap_s'))).toEqual(['run 1', 'run 2'])
    expect(b.optimizers[0].seen.filter((e) => e.type === 'RunEndEvent')).toHaveLength(1)
  })

  it('timeout with nothing judged: zero result naming the cap', async () => {
    const { tr } = await only({ options: { taskTimeCapS: 0.05 }, steps: () => [{ kind: 'hang' }] })
    expect(tr.stopReason).toBe('timeout')
    expect(tr.runs.map((r) => r.evaluated)).toEqual([false])
    expect(tr.bestScore.value).toBe(0)
    expect(tr.bestEvaluation.rationale).toBe('Task exceeded task_time_cap_s=0.05s and was cancelled.')
  })

  it('a TimeoutError the target raises itself is an error, not the cap', async () => {
    const { tr } = await only({
      options: { taskTimeCapS: 30 },
      target: (t) => {
        t.run = async () => {
          throw new DOMException('client read timeout', 'TimeoutError')
        }
      },
    })
    expect(tr.stopReason).toBe('error')
    expect(tr.runs[0].evaluation.rationale).toBe('Run 1 failed: TimeoutError: client read timeout')
  })
})

describe('best score, teardown, concurrency, order', () => {
  it('best score is the first of ties among judged runs', async () => {
    const forest = stubForest()
    const values = [0.2, 0.7, 0.7, 0.1]
    const { tr } = await only({
      options: { maxRunsPerTask: 4 },
      judge: (run) =>
        evaluationResult({
          success: false,
          primaryScore: score(values[run - 1]),
          rationale: `run ${run}`,
          subScores: { s: score(run, forest.user, 's') },
        }),
    })
    expect(tr.bestScore.value).toBe(0.7)
    expect(tr.bestEvaluation.rationale).toBe('run 2')
  })

  it('teardown runs even when it fails, and a failing teardown does not change the result', async () => {
    const { tr, targets } = await only({
      target: (t) => {
        t.failTeardown = true
      },
    })
    expect(tr.stopReason).toBe('max_runs')
    expect(targets[0].teardowns).toBe(1)
  })

  it('runs tasks up to the factory concurrency and returns them in claim order', async () => {
    const forest = stubForest()
    let running = 0
    let peak = 0
    const delays = [40, 5, 25, 1, 15]
    const tasks = delays.map(
      (d, i) =>
        new ScriptedTask(`task ${i + 1}`, async () => {
          running++
          peak = Math.max(peak, running)
          await new Promise((r) => setTimeout(r, d))
          running--
          return evaluationResult({ success: true, primaryScore: score(i) })
        }),
    )
    const controller = new Controller({
      optimizerFactory: () => new ScriptedOptimizer(),
      targetFactory: targetFactory(() => new StubTarget(forest), 2),
      securityClaim: SecurityClaim.fromTasks(tasks),
      scope: scopeOf([forest.user]),
    })
    const seen: number[] = []
    const result = await controller.run({ reporter: { taskComplete: (_, t) => seen.push(t.index) } })
    expect(peak).toBe(2)
    expect(result.taskResults.map((t: TaskResult) => t.task.goal.description)).toEqual(tasks.map((t) => t.goal.description))
    expect(seen).not.toEqual([1, 2, 3, 4, 5]) // they finished out of order
  })

  it('one task erroring never fails the others', async () => {
    const forest = stubForest()
    const controller = new Controller({
      optimizerFactory: () => new ScriptedOptimizer(),
      targetFactory: targetFactory(() => new StubTarget(forest), 3),
      securityClaim: SecurityClaim.fromTasks([
        new ScriptedTask('ok 1', () => fixtureEvaluation(forest, true)),
        new ScriptedTask('bad', () => {
          throw new Error('judge down')
        }),
        new ScriptedTask('ok 2', () => fixtureEvaluation(forest, true)),
      ]),
      scope: scopeOf([forest.user]),
    })
    const result = await controller.run()
    expect(result.taskResults.map((t) => t.stopReason)).toEqual(['success', 'error', 'success'])
  })

  it('a throwing reporter fails only the task it reported on', async () => {
    const { controller } = build({ goals: ['a', 'b'] })
    const result = await controller.run({
      reporter: {
        taskStart: (_, index) => {
          if (index === 1) throw new Error('ui broke')
        },
      },
    })
    expect(result.taskResults.map((t) => [t.stopReason, t.bestEvaluation.rationale])).toEqual([
      ['error', 'Unexpected orchestration error.'],
      ['max_runs', 'scripted'],
    ])
  })

  it('reports the lifecycle in order', async () => {
    const { controller } = build({ options: { maxRunsPerTask: 2 } })
    const log: string[] = []
    await controller.run({
      reporter: {
        threatModelStart: (i) => log.push(`start ${i.key}`),
        taskStart: (_, i) => log.push(`task ${i}`),
        runComplete: (_, i, r) => log.push(`run ${i}.${r.runNumber}`),
        taskComplete: (_, t) => log.push(`done ${t.index} ${t.stopReason}`),
        threatModelEnd: (_, r) => log.push(`end ${r.taskResults.length}`),
      },
    })
    expect(log).toEqual([`start ${controller.label}`, 'task 1', 'run 1.1', 'run 1.2', 'done 1 max_runs', 'end 1'])
    expect(controller.label).toBe('optimizer__target__securityclaim__no-llm-' + controller.label.slice(-8))
  })
})

describe('cancellation', () => {
  it('an AbortSignal ends running tasks, tears targets down, does not start the rest', async () => {
    const forest = stubForest()
    const targets: StubTarget[] = []
    const controller = new Controller({
      optimizerFactory: () => new ScriptedOptimizer(),
      targetFactory: targetFactory((): Target => {
        const t = new StubTarget(forest, () => [{ kind: 'hang' }])
        targets.push(t)
        return t
      }, 2),
      securityClaim: SecurityClaim.fromTasks(['a', 'b', 'c', 'd'].map((g) => new ScriptedTask(g, () => fixtureEvaluation(forest)))),
      scope: scopeOf([forest.user]),
      cleanupGraceMs: 100,
    })
    const abort = new AbortController()
    const started: number[] = []
    const pending = controller.run({ signal: abort.signal, reporter: { taskStart: (_, i) => started.push(i) } })
    await new Promise((r) => setTimeout(r, 30))
    abort.abort()
    const result = await pending
    expect(result.cancelled).toBe(true)
    expect(result.taskResults).toEqual([])
    expect(started).toEqual([1, 2])
    expect(targets.map((t) => t.teardowns)).toEqual([1, 1])
  })
})

describe('BudgetExhaustedError', () => {
  it('carries the usage at the time', () => {
    const e = new BudgetExhaustedError('Cost cap reached', { calls: 2, cost: 0.5 })
    expect(e.usage).toEqual({ calls: 2, cost: 0.5 })
    expect(e.name).toBe('BudgetExhaustedError')
  })
})

describe('turns', () => {
  it('reports each pause the optimizer is asked about, counted per run; scope-declined pauses are no turns', async () => {
    const b = build({ options: { maxRunsPerTask: 2 } })
    const turns: string[] = []
    await b.controller.run({ reporter: { turn: (_, index, runNumber, turn) => turns.push(`task ${index} run ${runNumber} turn ${turn}`) } })
    // FIXTURE_STEPS with scope {user}: only user_msg of its four pauses is writable.
    expect(turns).toEqual(['task 1 run 1 turn 1', 'task 1 run 2 turn 1'])
  })

  it('a reporter whose turn hook throws fails nothing: the task runs on and the failure is logged', async () => {
    const b = build({ options: { maxRunsPerTask: 2 } })
    const logged: string[] = []
    const result = await b.controller.run({
      reporter: {
        turn: () => {
          throw new Error('boom')
        },
        diagnostic: (_, level, message) => logged.push(`${level} ${message}`),
      },
    })
    expect(result.taskResults[0].runs).toHaveLength(2)
    expect(logged).toContain('error reporter turn failed: Error: boom')
  })
})
