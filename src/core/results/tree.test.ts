import { describe, expect, it } from 'vitest'
import { buildDomain, scopeOf } from '../tags'
import { Controller, type ControllerOptions } from '../engine/controller'
import { SecurityClaim, targetFactory } from '../engine/target'
import { fixtureEvaluation, ScriptedOptimizer, ScriptedTask, StubTarget, stubForest, type StubForest } from '../engine/testkit'
import { MemoryStorage } from './memoryStorage'
import { listExperiments, readExperiment, readTasks, readTrajectory } from './reader'
import { joinPath } from './storage'
import { readAttackerView } from './attackerView'

function controllerFor(
  storage: MemoryStorage,
  judges: Array<(run: number) => ReturnType<typeof fixtureEvaluation>>,
  extra: Partial<ControllerOptions> = {},
  forest: StubForest = stubForest(),
) {
  let optimizers = 0
  const controller = new Controller({
    optimizerFactory: function attacker() {
      optimizers++
      return new ScriptedOptimizer()
    },
    targetFactory: targetFactory(() => new StubTarget(forest), 2),
    securityClaim: SecurityClaim.fromTasks(
      judges.map((j, i) => new ScriptedTask(`goal number ${i + 1}`, (run) => j(run))),
      'Leaks',
    ),
    scope: scopeOf([forest.user]),
    readOnly: scopeOf([forest.system]),
    maxRunsPerTask: 2,
    storage,
    resultsDir: 'results',
    llmConfig: null,
    ...extra,
  })
  return { controller, optimizerCount: () => optimizers }
}

describe('write then read a whole tree', () => {
  it('reads back every file the Controller wrote, consistent with the result it returned', async () => {
    const forest = stubForest()
    const storage = new MemoryStorage()
    const { controller } = controllerFor(
      storage,
      [
        (run) => fixtureEvaluation(forest, run === 2, run / 4),
        () => {
          throw new Error('judge down')
        },
        () => fixtureEvaluation(forest, false, 0.25),
      ],
      {},
      forest,
    )
    const result = await controller.run()
    expect(result.resultsDir).toBe(`results/${controller.label}`)
    expect(controller.label).toMatch(/^attacker__target__leaks__no-llm-[0-9a-f]{8}$/)

    const [row] = await listExperiments(storage, 'results')
    expect(row).toMatchObject({ dir: controller.label, status: 'complete', summary: { n_success: 1, n_completed: 2 } })
    const exp = await readExperiment(storage, result.resultsDir!)
    expect(exp.manifest.status).toBe('complete')
    expect(exp.result?.summary).toMatchObject({
      asr: 0.5,
      n_tasks: 3,
      n_error: 1,
      n_failed: 1,
      max_primary_score: 0.5,
      mean_primary_score: 0.25,
    })
    expect(buildDomain(exp.domain!).tags.map((t) => t.name)).toEqual(forest.domain.tags.map((t) => t.name))
    expect(exp.manifest.tasks.map((t) => [t.index, t.status, t.stop_reason, t.n_runs])).toEqual([
      [1, 'success', 'success', 2],
      [2, 'error', 'error', 1],
      [3, 'failed', 'max_runs', 2],
    ])

    const tasks = await readTasks(storage, result.resultsDir!)
    expect(tasks.map((t) => t.task.goal)).toEqual(['goal number 1', 'goal number 2', 'goal number 3'])
    const [first, second] = tasks
    expect(first.task).toMatchObject({
      scope: ['user'],
      read_only: ['system'],
      llm_config: null,
      n_runs: 2,
      n_measured_runs: 2,
      error: null,
    })
    expect(second.task.error).toMatch(/^Error: judge down/)
    expect(second.iterations!.runs[0]).toMatchObject({ evaluated: false, errored: true, primary_score: 0 })
    expect(first.attacker).toMatchObject({
      scope: ['user'],
      read_only: ['system'],
      controllables: [{ name: 'user_msg', security_domain: 'user' }],
    })
    expect(first.attacker!.observables.map((o) => o.observable.name)).toEqual(['model_identity', 'user_profile', 'sys_prompt'])

    for (const [i, run] of result.taskResults[0].runs.entries()) {
      const full = await readTrajectory(storage, first.dir, i + 1)
      const seen = await readAttackerView(storage, first.dir, i + 1)
      expect(full!.trajectory.map((x) => x.type)).toEqual(run.trajectory.map((x) => x.type))
      expect(seen!.source).toBe('derived')
      expect(seen!.file.trajectory.map((x) => x.type)).toEqual(run.attackerView.map((x) => x.type))
      expect(full!.trajectory.filter((x) => x.kind === 'event').map((x) => (x as { event_id: string }).event_id)).toEqual(
        run.trajectory.filter((x) => 'eventId' in x).map((x) => (x as { eventId: string }).eventId),
      )
    }
    const log = (await storage.readText(joinPath(second.dir, 'logs', 'diagnostics.log')))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(log[0]).toMatchObject({ level: 'error', task_index: 2, message: expect.stringContaining('unexpected error during run 1') })
    expect(await storage.exists(joinPath(first.dir, 'logs'))).toBe(false)
    // The partial trajectory of the errored run is on disk too.
    expect((await readTrajectory(storage, second.dir, 1))!.trajectory.length).toBeGreaterThan(0)
    expect(await readTrajectory(storage, second.dir, 2)).toBeNull()
  })

  it('never writes a secret: only the model name of the LLM config', async () => {
    const storage = new MemoryStorage()
    const forest = stubForest()
    const { controller } = controllerFor(
      storage,
      [() => fixtureEvaluation(forest)],
      {
        llmConfig: { model: 'gpt-4o-mini', apiKey: 'sk-very-secret', apiBase: 'https://internal.example/v1' },
        llmClientFactory: () => {
          throw new Error('not called: the scripted optimizer makes no calls')
        },
      },
      forest,
    )
    const result = await controller.run()
    expect(result.taskResults[0].stopReason).toBe('error') // the factory threw: contained as a task error
    const all = [...storage.files.values()].join('\n')
    expect(all).not.toContain('sk-very-secret')
    expect(all).not.toContain('internal.example')
    expect(all).toContain('"model": "gpt-4o-mini"')
  })
})

describe('experiments.json', () => {
  it('holds one row per experiment, sorted by folder, and a rerun replaces only its own row', async () => {
    const forest = stubForest()
    const storage = new MemoryStorage()
    const make = (attackerLabel: string) => controllerFor(storage, [() => fixtureEvaluation(forest)], { attackerLabel }, forest).controller
    await make('zeta').run()
    await make('alpha').run()
    await make('zeta').run()
    const rows = await listExperiments(storage, 'results')
    expect(rows.map((r) => r.experiment.attacker)).toEqual(['alpha', 'zeta'])
    expect(rows.map((r) => r.status)).toEqual(['complete', 'complete'])
  })
})

describe('skipped tasks', () => {
  it('appear only in the manifest, with status skipped, and count in n_skipped', async () => {
    const forest = stubForest()
    const storage = new MemoryStorage()
    const controller = new Controller({
      optimizerFactory: () => new ScriptedOptimizer(),
      targetFactory: targetFactory(() => new StubTarget(forest)),
      securityClaim: SecurityClaim.fromTasks([
        new ScriptedTask('runs', () => fixtureEvaluation(forest)),
        new ScriptedTask('skips', () => fixtureEvaluation(forest)),
      ]),
      scope: (task) => (task.goal.description === 'skips' ? new Set() : scopeOf([forest.user])),
      scopeLabel: 'only-some',
      maxRunsPerTask: 1,
      storage,
    })
    const result = await controller.run()
    const exp = await readExperiment(storage, result.resultsDir!)
    expect(exp.manifest.tasks[1]).toEqual({
      index: 2,
      goal: 'skips',
      goal_hash: expect.any(String),
      dir: null,
      status: 'skipped',
      success: false,
      best_score: 0,
      stop_reason: 'skipped',
      n_runs: 0,
      cost_usd: 0,
      has_error: false,
      started_at: null,
      ended_at: null,
    })
    expect(exp.result!.summary).toMatchObject({ n_tasks: 1, n_skipped: 1 })
    expect(exp.manifest.experiment).toMatchObject({ scope: [], read_only: [], scope_label: 'only-some' })
    expect((await readTasks(storage, result.resultsDir!)).map((t) => t.task.goal)).toEqual(['runs'])
    expect(await storage.readText(`${result.resultsDir}/manifest.json`)).toContain('"best_score": 0.0,\n      "stop_reason": "skipped"')
  })
})

describe('resume', () => {
  it('keeps finished tasks, reruns errored ones, snapshots the prior state first', async () => {
    const forest = stubForest()
    const storage = new MemoryStorage()
    const first = controllerFor(
      storage,
      [
        () => fixtureEvaluation(forest, true),
        () => {
          throw new Error('flaky')
        },
      ],
      {},
      forest,
    )
    const r1 = await first.controller.run()
    expect(r1.taskResults.map((t) => t.stopReason)).toEqual(['success', 'error'])
    expect(first.optimizerCount()).toBe(2)

    const second = controllerFor(
      storage,
      [
        () => {
          throw new Error('must not rerun')
        },
        () => fixtureEvaluation(forest),
      ],
      {},
      forest,
    )
    expect(second.controller.label).toBe(first.controller.label)
    const completes: Array<[number, number | undefined]> = []
    const r2 = await second.controller.run({ reporter: { taskComplete: (_, t) => completes.push([t.index, t.nRuns]) } })
    expect(second.optimizerCount()).toBe(1)
    expect(r2.taskResults.map((t) => [t.stopReason, t.runs.length, t.nRuns])).toEqual([
      ['success', 0, 1],
      ['max_runs', 2, undefined],
    ])
    expect(completes).toEqual([
      [1, 1],
      [2, undefined],
    ])

    const dir = r2.resultsDir!
    const prev = await readTasks(storage, joinPath(dir, 'previous_01'))
    expect(prev.map((t) => t.task.status)).toEqual(['success', 'error'])
    const now = await readTasks(storage, dir)
    expect(now.map((t) => t.task.status)).toEqual(['success', 'failed'])
    const exp = await readExperiment(storage, dir)
    expect(exp.result!.summary).toMatchObject({ n_tasks: 2, n_success: 1, n_completed: 2, n_error: 0 })

    // A third identical run keeps both; overwrite reruns everything.
    const third = controllerFor(storage, [() => fixtureEvaluation(forest, true), () => fixtureEvaluation(forest)], {}, forest)
    await third.controller.run()
    expect(third.optimizerCount()).toBe(0)
    const fourth = controllerFor(
      storage,
      [() => fixtureEvaluation(forest, true), () => fixtureEvaluation(forest)],
      { overwrite: true },
      forest,
    )
    await fourth.controller.run()
    expect(fourth.optimizerCount()).toBe(2)
    expect((await storage.list(dir)).filter((e) => e.name.startsWith('previous_')).map((e) => e.name)).toEqual([
      'previous_01',
      'previous_02',
    ])
  })

  it('a cancelled run leaves the manifest in progress, no result.json and no index row', async () => {
    const forest = stubForest()
    const storage = new MemoryStorage()
    const hang = new Controller({
      optimizerFactory: () => new ScriptedOptimizer(),
      targetFactory: targetFactory(() => new StubTarget(forest, (run) => (run === 1 ? [] : [{ kind: 'hang' }])), 1),
      securityClaim: SecurityClaim.fromTasks([
        new ScriptedTask('quick', () => fixtureEvaluation(forest, true)),
        new ScriptedTask('slow', () => fixtureEvaluation(forest)),
      ]),
      scope: scopeOf([forest.user]),
      maxRunsPerTask: 3,
      storage,
      cleanupGraceMs: 50,
    })
    const abort = new AbortController()
    const pending = hang.run({
      signal: abort.signal,
      reporter: {
        taskStart: (_, i) => {
          if (i === 2) setTimeout(() => abort.abort(), 20)
        },
      },
    })
    const result = await pending
    expect(result.cancelled).toBe(true)
    expect(result.taskResults.map((t) => t.task.goal.description)).toEqual(['quick'])
    const exp = await readExperiment(storage, result.resultsDir!)
    expect(exp.manifest.status).toBe('in_progress')
    expect(exp.result).toBeNull()
    expect(exp.manifest.tasks.map((t) => t.goal)).toEqual(['quick'])
    expect(await listExperiments(storage)).toMatchObject([{ status: 'in_progress' }])
    expect(await storage.exists('experiments.json')).toBe(false)
  })

  it('a changed goal at the same index reruns, and its stale folder is pruned', async () => {
    const forest = stubForest()
    const storage = new MemoryStorage()
    await controllerFor(storage, [() => fixtureEvaluation(forest, true)], {}, forest).controller.run()
    let runs = 0
    const changed = new Controller({
      optimizerFactory: function attacker() {
        runs++
        return new ScriptedOptimizer()
      },
      targetFactory: targetFactory(() => new StubTarget(forest), 2),
      securityClaim: SecurityClaim.fromTasks([new ScriptedTask('a different goal', () => fixtureEvaluation(forest, true))], 'Leaks'),
      scope: scopeOf([forest.user]),
      readOnly: scopeOf([forest.system]),
      maxRunsPerTask: 2,
      storage,
      resultsDir: 'results',
    })
    const result = await changed.run()
    expect(runs).toBe(1)
    expect((await storage.list(joinPath(result.resultsDir!, 'tasks'))).map((e) => e.name)).toEqual(['00001__a_different_goal'])
    expect((await storage.list(joinPath(result.resultsDir!, 'previous_01', 'tasks'))).map((e) => e.name)).toEqual(['00001__goal_number_1'])
  })
})

describe('the in-progress manifest of a long experiment', () => {
  /** A MemoryStorage that keeps every text written to a manifest.json, in order. */
  class ManifestLog extends MemoryStorage {
    readonly manifests: string[] = []
    async writeTextAtomic(path: string, text: string): Promise<void> {
      if (path.endsWith('/manifest.json')) this.manifests.push(text)
      return super.writeTextAtomic(path, text)
    }
  }
  const TASKS = 300
  const long = (storage: MemoryStorage, forest: StubForest) =>
    new Controller({
      optimizerFactory: () => new ScriptedOptimizer(),
      targetFactory: targetFactory(() => new StubTarget(forest), 4),
      securityClaim: SecurityClaim.fromTasks(
        Array.from({ length: TASKS }, (_, i) => new ScriptedTask(`goal ${i + 1}`, () => fixtureEvaluation(forest))),
      ),
      scope: scopeOf([forest.user]),
      maxRunsPerTask: 1,
      storage,
    })
  const listed = (manifest: string) => (JSON.parse(manifest) as { tasks: unknown[] }).tasks.length

  it('is rewritten as tasks land, ever less often as it grows, and ends complete with all of them', async () => {
    const forest = stubForest()
    const storage = new ManifestLog()
    await long(storage, forest).run()
    const counts = storage.manifests.map(listed)
    // The first write (at open) lists nothing; each rewrite lists more than the last; the last is complete.
    expect(counts[0]).toBe(0)
    expect(counts.slice(1).every((n, i) => n > counts[i])).toBe(true)
    expect(JSON.parse(storage.manifests.at(-1)!)).toMatchObject({ status: 'complete', summary: { n_tasks: TASKS } })
    expect(counts.at(-1)).toBe(TASKS)
    // Linear, not quadratic: all the rewrites together are a bounded multiple of the last manifest (28x here; a
    // rewrite at every landing, with the tasks that land while one is queued riding on it, was 77x and ~150 writes).
    const bytes = storage.manifests.reduce((sum, m) => sum + m.length, 0)
    expect(bytes / storage.manifests.at(-1)!.length).toBeLessThan(40)
    expect(storage.manifests.length).toBeLessThan(100)
  })

  it('lists every task that landed when the run is cancelled between rewrites', async () => {
    const forest = stubForest()
    const storage = new ManifestLog()
    const cancel = new AbortController()
    let landed = 0
    const result = await long(storage, forest).run({
      signal: cancel.signal,
      reporter: {
        taskComplete: () => {
          if (++landed === 200) cancel.abort()
        },
      },
    })
    expect(result.cancelled).toBe(true)
    const manifest = JSON.parse(storage.manifests.at(-1)!) as { status: string; tasks: Array<{ index: number }> }
    expect(manifest.status).toBe('in_progress')
    expect(manifest.tasks.map((t) => t.index)).toEqual(result.taskResults.map((t) => t.index))
    expect(manifest.tasks.length).toBeGreaterThanOrEqual(200)
  })
})
