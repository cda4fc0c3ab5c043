/**
 * A task folder's writes as data (planTaskWrites) and their execution (writeTaskPlan): the plan is checked as a
 * value, with no storage; the executor, against a memory storage with and without a bulk path.
 */
import { describe, expect, it } from 'vitest'
import { scopeOf } from '../tags'
import { Controller } from '../engine/controller'
import type { TaskResult } from '../engine/outcomes'
import { SecurityClaim, targetFactory } from '../engine/target'
import { fixtureEvaluation, ScriptedOptimizer, ScriptedTask, StubTarget, stubForest } from '../engine/testkit'
import { MemoryStorage } from './memoryStorage'
import type { BulkWriter } from './storage'
import { planTaskWrites, writeTaskPlan, type TaskPlanInput } from './taskWrites'
import { trajectoryTexts, type TrajectoryJob } from './trajectoryText'

const forest = stubForest()

async function twoRunTask(): Promise<{ result: TaskResult; meta: TaskPlanInput['meta'] }> {
  const controller = new Controller({
    optimizerFactory: function attacker() {
      return new ScriptedOptimizer()
    },
    targetFactory: targetFactory(() => new StubTarget(forest), 2),
    securityClaim: SecurityClaim.fromTasks(
      [new ScriptedTask('leak the key', (run) => fixtureEvaluation(forest, run === 2, run / 4))],
      'Leaks',
    ),
    scope: scopeOf([forest.user]),
    readOnly: scopeOf([forest.system]),
    maxRunsPerTask: 2,
    storage: null,
    llmConfig: null,
  })
  const result = await controller.run()
  return { result: result.taskResults[0]!, meta: controller.meta(1) }
}

async function inputFor(overrides: Partial<TaskPlanInput> = {}): Promise<TaskPlanInput> {
  const { result, meta } = await twoRunTask()
  return {
    index: 1,
    result,
    taskDir: 'exp/tasks/00001__leak-the-key',
    replaces: false,
    meta,
    schema: 5,
    countEchoes: false,
    domain: null,
    diagnostics: null,
    ...overrides,
  }
}

const dir = 'exp/tasks/00001__leak-the-key'

describe('planTaskWrites', () => {
  it('plans the folder: trajectories and files unpublished, task.json last and atomic, nothing removed when fresh', async () => {
    const plan = planTaskWrites(await inputFor())
    expect(plan.remove).toBeNull()
    // No domain yet: every run keeps its attacker file beside its trajectory.
    expect(plan.trajectories.paths).toEqual([
      `${dir}/trajectories/run_00001.json`,
      `${dir}/trajectories/run_00001.attacker.json`,
      `${dir}/trajectories/run_00002.json`,
      `${dir}/trajectories/run_00002.attacker.json`,
    ])
    expect(plan.files.map((f) => [f.path, f.atomic])).toEqual([
      [`${dir}/iterations.json`, false],
      [`${dir}/attacker.json`, false],
      [`${dir}/run_records.json`, false],
    ])
    expect(plan.publish.path).toBe(`${dir}/task.json`)
    expect(plan.publish.atomic).toBe(true)
    expect(JSON.parse(plan.publish.text)).toMatchObject({ index: 1, n_runs: 2, success: true })
    expect(plan.task.status).toBe('success')
  })

  it('is a function of its input: the same input plans the same writes', async () => {
    const input = await inputFor({ diagnostics: '{"message": "x"}\n' })
    const a = planTaskWrites(input)
    const b = planTaskWrites(input)
    expect(a.files).toEqual(b.files)
    expect(a.publish).toEqual(b.publish)
    expect(trajectoryTexts(a.trajectories.job)).toEqual(trajectoryTexts(b.trajectories.job))
  })

  it('removes the previous copy first when it replaces one, and writes the diagnostics given', async () => {
    const plan = planTaskWrites(await inputFor({ replaces: true, diagnostics: 'line\n' }))
    expect(plan.remove).toBe(dir)
    expect(plan.files.at(-1)).toEqual({ path: `${dir}/logs/diagnostics.log`, text: 'line\n', atomic: false })
  })

  it('drops the attacker files that the written domain rebuilds', async () => {
    const plan = planTaskWrites(await inputFor({ domain: forest.domain }))
    expect(plan.trajectories.paths).toEqual([`${dir}/trajectories/run_00001.json`, `${dir}/trajectories/run_00002.json`])
  })
})

describe('writeTaskPlan', () => {
  it('without a bulk path, writes every planned file atomically, task.json last', async () => {
    const plan = planTaskWrites(await inputFor())
    const expected = new Map([
      ...trajectoryTexts(plan.trajectories.job).map((t, i) => [plan.trajectories.paths[i]!, t] as const),
      ...plan.files.map((f) => [f.path, f.text] as const),
      [plan.publish.path, plan.publish.text] as const,
    ])
    const storage = new MemoryStorage()
    const order: string[] = []
    const write = storage.writeTextAtomic.bind(storage)
    storage.writeTextAtomic = (path, text) => {
      order.push(path)
      return write(path, text)
    }
    await writeTaskPlan(storage, null, plan)
    expect(new Map(storage.files)).toEqual(expected)
    expect(order.at(-1)).toBe(`${dir}/task.json`)
  })

  it('with a bulk path, hands it the trajectories and the unpublished files; only task.json is atomic', async () => {
    const plan = planTaskWrites(await inputFor({ replaces: true }))
    const storage = new MemoryStorage()
    await storage.writeTextAtomic(`${dir}/stale.json`, 'old')
    const log: string[] = []
    const bulk: BulkWriter = {
      writeTextUnpublished: async (path) => {
        log.push(`unpublished ${path}`)
      },
      writeTrajectoriesUnpublished: async (paths: readonly string[], job: TrajectoryJob) => {
        expect(trajectoryTexts(job)).toHaveLength(paths.length)
        log.push(`trajectories ${paths.length}`)
      },
    }
    await writeTaskPlan(storage, bulk, plan)
    expect(log).toEqual([
      'trajectories 4',
      `unpublished ${dir}/iterations.json`,
      `unpublished ${dir}/attacker.json`,
      `unpublished ${dir}/run_records.json`,
    ])
    expect([...storage.files.keys()]).toEqual([`${dir}/task.json`])
  })
})
