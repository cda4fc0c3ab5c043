import { describe, expect, it } from 'vitest'
import { scopeOf, SecurityDomainTag } from '../tags'
import { Controller, type ControllerOptions } from './controller'
import { isResponse, type TrajectoryItem } from './events'
import { NotApplicable, SecurityClaim, targetFactory } from './target'
import { fixtureEvaluation, ScriptedOptimizer, ScriptedTask, StubTarget, stubForest, type StubForest } from './testkit'

function setup(overrides: (f: StubForest) => Partial<ControllerOptions>, goals = ['leak the secret']) {
  const forest = stubForest()
  const targets: StubTarget[] = []
  const optimizers: ScriptedOptimizer[] = []
  const tasks = goals.map((g) => new ScriptedTask(g, () => fixtureEvaluation(forest)))
  const controller = new Controller({
    optimizerFactory: () => {
      const o = new ScriptedOptimizer()
      optimizers.push(o)
      return o
    },
    targetFactory: targetFactory(() => {
      const t = new StubTarget(forest)
      targets.push(t)
      return t
    }),
    securityClaim: SecurityClaim.fromTasks(tasks),
    scope: scopeOf([forest.user]),
    maxRunsPerTask: 1,
    ...overrides(forest),
  })
  return { forest, targets, optimizers, tasks, controller }
}

const summary = (items: readonly TrajectoryItem[]) =>
  items.map((i) =>
    isResponse(i) ? `${i.type}${i.type === 'ControllableNoInjection' ? `:${i.declinedBy}` : ''}` : `${i.type}@${i.securityDomain?.name}`,
  )

describe('Controller construction (exact reference messages)', () => {
  const forest = stubForest()
  const base: ControllerOptions = {
    optimizerFactory: () => new ScriptedOptimizer(),
    targetFactory: targetFactory(() => new StubTarget(forest)),
    securityClaim: SecurityClaim.fromTasks([new ScriptedTask('g', () => fixtureEvaluation(forest))]),
    scope: scopeOf([forest.user]),
  }
  it.each<[Partial<ControllerOptions>, string]>([
    [{ scope: new Set(), readOnly: new Set() }, 'scope and read_only cannot both be empty'],
    [{ scope: () => new Set() }, 'scope_label is required (non-empty) when scope or read_only is a callable resolver'],
    [{ scope: () => new Set(), scopeLabel: '   ' }, 'scope_label is required (non-empty) when scope or read_only is a callable resolver'],
    [{ readOnly: () => new Set() }, 'scope_label is required (non-empty) when scope or read_only is a callable resolver'],
    [{ scopeLabel: 'x' }, 'scope_label is only valid when scope or read_only is a callable resolver'],
    [{ maxRunsPerTask: 0 }, 'max_runs_per_task must be at least 1'],
    [{ taskCostCapUsd: -0.01 }, 'task_cost_cap_usd must be non-negative'],
    [{ taskTimeCapS: 0 }, 'task_time_cap_s must be positive'],
  ])('%o → %s', (overrides, message) => {
    expect(() => new Controller({ ...base, ...overrides })).toThrow(message)
  })

  it('accepts scope=∅ with a read-only tag, and a fixed scope with a label-less resolver pair given a label', () => {
    expect(() => new Controller({ ...base, scope: new Set(), readOnly: scopeOf([forest.user]) })).not.toThrow()
    expect(() => new Controller({ ...base, scope: () => new Set(), scopeLabel: 'per-task' })).not.toThrow()
  })

  it('accepts non-antichains, overlaps and tags outside the forest, as the reference does', () => {
    const stranger = new SecurityDomainTag('stranger')
    expect(
      () => new Controller({ ...base, scope: scopeOf([forest.system, forest.systemPrompt, stranger]), readOnly: scopeOf([forest.system]) }),
    ).not.toThrow()
  })
})

describe('the five filtering fronts', () => {
  it('offers writable controllables, visible observables, and read-only controllables as observables', async () => {
    const { optimizers, controller } = setup((f) => ({ scope: scopeOf([f.user]), readOnly: scopeOf([f.system, f.web]) }))
    await controller.run()
    const o = optimizers[0]
    expect(o.offeredControllables.map((c) => c.name)).toEqual(['user_msg'])
    // Target observables in target order first, then re-presented controllables (content null).
    expect(o.offeredObservables.map((v) => [v.observable.name, v.content])).toEqual([
      ['model_identity', 'stub-1'],
      ['user_profile', { name: 'alice' }],
      ['sys_prompt', null],
      ['web_page', null],
    ])
    expect(o.offeredObservables[2].observable).toMatchObject({
      securityDomain: expect.any(SecurityDomainTag),
      description: 'sys_prompt surface',
      observableType: 'text',
    })
  })

  it('records everything on the full trajectory, the visible part on the view, and declines out-of-write events by "scope"', async () => {
    const { targets, optimizers, controller } = setup((f) => ({ scope: scopeOf([f.user]), readOnly: scopeOf([f.system]) }))
    const result = await controller.run()
    const run = result.taskResults[0].runs[0]
    expect(summary(run.trajectory)).toEqual([
      'ControllablePreCallEvent@system_prompt',
      'ControllableNoInjection:scope',
      'ControllablePreCallEvent@user',
      'ControllableInjection',
      'ObservableEvent@model',
      'ControllablePreCallEvent@inbox',
      'ControllableNoInjection:scope',
      'ControllablePostCallEvent@inbox',
      'ControllableNoInjection:scope',
      'ObservableEvent@web',
      'ControllablePreCallEvent@web',
      'ControllableNoInjection:scope',
      'ObservableEvent@model',
      'RunEndEvent@system',
    ])
    expect(summary(run.attackerView)).toEqual([
      'ControllablePreCallEvent@system_prompt',
      'ControllableNoInjection:scope',
      'ControllablePreCallEvent@user',
      'ControllableInjection',
      'RunEndEvent@system',
    ])
    // The optimizer was asked only about the writable controllable.
    expect(optimizers[0].seen.map((e) => e.type)).toEqual(['RunStartEvent', 'ControllablePreCallEvent', 'RunEndEvent'])
    expect(targets[0].received[0]).toEqual([
      { controllable: 'sys_prompt', type: 'ControllableNoInjection', declinedBy: 'scope' },
      { controllable: 'user_msg', type: 'ControllableInjection', value: 'INJ:user_msg' },
      { controllable: 'inbox_email', type: 'ControllableNoInjection', declinedBy: 'scope' },
      { controllable: 'inbox_email', type: 'ControllableNoInjection', declinedBy: 'scope' },
      { controllable: 'web_page', type: 'ControllableNoInjection', declinedBy: 'scope' },
    ])
  })

  it('gives the RunEndEvent to the optimizer already on its view, with sub-scores filtered by visibility', async () => {
    const { optimizers, tasks, controller } = setup((f) => ({ scope: scopeOf([f.user]), readOnly: scopeOf([f.system]) }))
    const result = await controller.run()
    const end = optimizers[0].seen.at(-1)!
    expect(end.type).toBe('RunEndEvent')
    const view = optimizers[0].pastTrajectories[0].snapshot()
    expect(view.at(-1)).toBe(end)
    const evaluation = end.type === 'RunEndEvent' ? end.evaluation : null
    expect(Object.keys(evaluation!.subScores)).toEqual(['user_score', 'sys_score', 'global'])
    expect(evaluation!.primaryScore.value).toBe(0.5)
    expect(evaluation!.rationale).toBe('scripted')
    // The evaluator got the full trajectory; the result keeps the unfiltered evaluation.
    expect(tasks[0].seenTrajectories[0].snapshot().length).toBe(14)
    expect(Object.keys(result.taskResults[0].bestEvaluation.subScores)).toEqual(['user_score', 'inbox_score', 'sys_score', 'global'])
  })

  it('with include_feedback=false the RunEndEvent carries no evaluation', async () => {
    const { optimizers, controller } = setup(() => ({ includeFeedback: false }))
    await controller.run()
    const end = optimizers[0].seen.at(-1)!
    expect(end.type === 'RunEndEvent' && end.evaluation).toBeNull()
  })

  it('read_only inside the write subtree changes nothing; write inside read_only makes only that subtree injectable', async () => {
    const a = setup((f) => ({ scope: scopeOf([f.system]), readOnly: scopeOf([f.systemPrompt]) }))
    await a.controller.run()
    expect(a.optimizers[0].offeredControllables.map((c) => c.name)).toEqual(['sys_prompt'])
    expect(a.targets[0].received[0][0]).toEqual({ controllable: 'sys_prompt', type: 'ControllableInjection', value: 'INJ:sys_prompt' })
    const b = setup((f) => ({ scope: scopeOf([f.systemPrompt]), readOnly: scopeOf([f.system]) }))
    await b.controller.run()
    expect(b.optimizers[0].offeredControllables.map((c) => c.name)).toEqual(['sys_prompt'])
    expect(b.optimizers[0].offeredObservables.map((o) => o.observable.name)).toEqual(['model_identity'])
  })

  it('a read-only-only scope offers no controllables, declines everything by scope, and still shows the surfaces', async () => {
    const { optimizers, targets, controller } = setup((f) => ({ scope: new Set(), readOnly: scopeOf([f.user, f.inbox]) }))
    const result = await controller.run()
    expect(optimizers[0].offeredControllables).toEqual([])
    expect(optimizers[0].offeredObservables.map((o) => o.observable.name)).toEqual(['user_profile', 'user_msg', 'inbox_email'])
    expect(targets[0].received[0].every((r) => r.declinedBy === 'scope')).toBe(true)
    expect(optimizers[0].seen.map((e) => e.type)).toEqual(['RunStartEvent', 'RunEndEvent'])
    expect(summary(result.taskResults[0].runs[0].attackerView)).toEqual([
      'ControllablePreCallEvent@user',
      'ControllableNoInjection:scope',
      'ControllablePreCallEvent@inbox',
      'ControllableNoInjection:scope',
      'ControllablePostCallEvent@inbox',
      'ControllableNoInjection:scope',
      'RunEndEvent@inbox',
    ])
  })

  it('a look-alike tag constructs fine but matches nothing: the optimizer is offered nothing', async () => {
    const lookalike = new SecurityDomainTag('user')
    const { optimizers, targets, controller } = setup(() => ({ scope: scopeOf([lookalike]) }))
    const result = await controller.run()
    expect(result.taskResults[0].stopReason).toBe('max_runs')
    expect(optimizers[0].offeredControllables).toEqual([])
    expect(optimizers[0].offeredObservables).toEqual([])
    expect(targets[0].received[0].every((r) => r.declinedBy === 'scope')).toBe(true)
    // Only the RunEndEvent (tagged with the look-alike itself) is on the attacker's view.
    expect(summary(result.taskResults[0].runs[0].attackerView)).toEqual(['RunEndEvent@user'])
  })
})

describe('per-task resolvers', () => {
  it('resolves once per task, each dimension independently; NotApplicable counts as empty; empty visibility skips', async () => {
    const calls: string[] = []
    const { controller, optimizers } = setup(
      (f) => ({
        scope: (task) => {
          calls.push(`w:${task.goal.description}`)
          if (task.goal.description === 'b') throw new NotApplicable()
          return task.goal.description === 'c' ? new Set() : scopeOf([f.user])
        },
        readOnly: (task) => {
          calls.push(`r:${task.goal.description}`)
          if (task.goal.description !== 'b') throw new NotApplicable()
          return scopeOf([f.inbox])
        },
        scopeLabel: 'per-task',
        maxRunsPerTask: 2,
      }),
      ['a', 'b', 'c'],
    )
    const result = await controller.run()
    expect(calls).toEqual(['w:a', 'r:a', 'w:b', 'r:b', 'w:c', 'r:c'])
    expect(
      result.taskResults.map((t) => [t.task.goal.description, [...t.scope].map((s) => s.name), [...t.readOnly].map((s) => s.name)]),
    ).toEqual([
      ['a', ['user'], []],
      ['b', [], ['inbox']],
    ])
    expect(result.skippedTasks.map((s) => s.task.goal.description)).toEqual(['c'])
    expect(result.scope.size).toBe(0)
    expect(result.scopeLabel).toBe('per-task')
    expect(optimizers).toHaveLength(2)
  })

  it('a resolver that throws anything else fails only that task, with empty scope recorded', async () => {
    const { controller } = setup(
      (f) => ({
        scope: (task) => {
          if (task.goal.description === 'bad') throw new TypeError('boom')
          return scopeOf([f.user])
        },
        scopeLabel: 'x',
      }),
      ['bad', 'good'],
    )
    const result = await controller.run()
    const [bad, good] = result.taskResults
    expect(bad.stopReason).toBe('error')
    expect(bad.bestEvaluation.rationale).toBe('Scope resolver failed before run loop started.')
    expect(bad.error).toMatch(/^TypeError: boom/)
    expect(bad.scope.size).toBe(0)
    expect(good.stopReason).toBe('max_runs')
  })

  it('NotApplicable from configureTarget skips the task (static scope)', async () => {
    const forest = stubForest()
    const targets: StubTarget[] = []
    const controller = new Controller({
      optimizerFactory: () => new ScriptedOptimizer(),
      targetFactory: targetFactory(() => {
        const t = new StubTarget(forest)
        targets.push(t)
        return t
      }),
      securityClaim: SecurityClaim.fromTasks([
        new ScriptedTask(
          'skip me',
          () => fixtureEvaluation(forest),
          () => {
            throw new NotApplicable('no inbox here')
          },
        ),
        new ScriptedTask('run me', () => fixtureEvaluation(forest)),
      ]),
      scope: scopeOf([forest.user]),
      maxRunsPerTask: 1,
    })
    const result = await controller.run()
    expect(result.skippedTasks.map((s) => [s.index, s.reason])).toEqual([[1, 'no inbox here']])
    expect(result.taskResults.map((t) => t.task.goal.description)).toEqual(['run me'])
    expect(targets.map((t) => t.teardowns)).toEqual([1, 1])
  })
})
