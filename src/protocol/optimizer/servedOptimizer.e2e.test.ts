// @vitest-environment node
/**
 * redscope's Controller attacks with a superred optimizer served by the
 * Python bridge (the probe optimizer, which injects an account of what reached
 * it): what the optimizer saw is the Controller's attacker view, event by
 * event; the usage of the bridge's LLM is each run's; its replies are the
 * task's notes. Then faults: an optimizer that raises, one that takes too
 * long, a bridge that dies mid-run: each ends its own task in `error` with
 * the message, the others finish, and an experiment written before in the
 * same folder is byte for byte the same.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { NodeFsStorage } from '../../adapters/storage/nodeFsStorage'
import {
  Controller,
  evaluationResult,
  score,
  SecurityClaim,
  targetFactory,
  type EvaluationResult,
  type ReadableTrajectory,
  type Task,
  type ThreatModelResult,
} from '../../core/engine'
import { readTask } from '../../core/results'
import { scopeOf, type SecurityDomain } from '../../core/tags'
import { probeFactory } from '../../testing/probeTarget'
import { pythonBridgeAvailable, spawnBridgeOptimizers, spawnVenv, type SpawnedServer } from '../../testing/pythonBridge'
import { filesUnder } from '../../testing/threatModelHarness'
import { connectServedOptimizer, type ServedOptimizerOptions } from './servedOptimizer'
import { servedLlmClientFactory } from './servedLlm'

const PROBE = 'redscope_bridge.testing.probe_optimizer:ProbeOptimizer'

/** A task judged by whether anything was injected into the user message (never a success, so runs go on). */
function task(goal: string): Task {
  return {
    goal: { description: goal },
    configureTarget: () => {},
    evaluate: async (trajectory: ReadableTrajectory): Promise<EvaluationResult> => {
      const injected = trajectory.snapshot().some((i) => i.type === 'ControllableInjection')
      return evaluationResult({ success: false, primaryScore: score(injected ? 0.5 : 0), rationale: injected ? 'injected' : 'nothing' })
    },
  }
}

interface Attack {
  readonly url: string
  readonly name: string
  readonly kwargs?: Record<string, unknown>
  readonly goals: readonly string[]
  readonly root: string
  readonly label: string
  readonly client?: ServedOptimizerOptions
  readonly onTaskStart?: (index: number) => void
}

async function attack(a: Attack): Promise<{ result: ThreatModelResult; domain: SecurityDomain }> {
  const source = await connectServedOptimizer(a.url, a.name, a.kwargs ?? {}, a.client)
  const create = probeFactory()
  const domain = create().securityDomain
  const tag = (n: string) => domain.get(n)!
  const controller = new Controller({
    optimizerFactory: source.optimizerFactory,
    targetFactory: targetFactory(create, 1),
    securityClaim: SecurityClaim.fromTasks(a.goals.map(task), 'probe-claim'),
    scope: scopeOf([tag('user')]),
    readOnly: scopeOf([tag('inbox')]),
    llmConfig: source.llmConfig,
    llmClientFactory: source.llmConfig ? servedLlmClientFactory : null,
    maxRunsPerTask: 5,
    storage: new NodeFsStorage(a.root),
    domain,
    attackerLabel: a.label,
    targetLabel: 'probe',
    semantics: 'superred-0.3.0',
  })
  const result = await controller.run({ reporter: { taskStart: (_info, index) => a.onTaskStart?.(index) } })
  return { result, domain }
}

const python = pythonBridgeAvailable()

describe.runIf(python)("a served superred optimizer driven by redscope's Controller", () => {
  let llm: SpawnedServer
  let bridge: SpawnedServer
  const roots: string[] = []
  const root = () => {
    const r = mkdtempSync(join(tmpdir(), 'redscope-served-'))
    roots.push(r)
    return r
  }
  beforeAll(async () => {
    llm = await spawnVenv('python', ['-m', 'redscope_bridge.testing.fake_llm', '--port', '0'], /fake LLM at (http:\/\/\S+\/v1)/)
    bridge = await spawnBridgeOptimizers(
      ['--optimizer', `probe=${PROBE}`, '--llm-model', 'openai/gpt-4o-mini', '--llm-api-base', llm.url],
      { OPENAI_API_KEY: 'sk-fake' },
    )
  }, 180_000)
  afterAll(async () => {
    await Promise.all([bridge?.close(), llm?.close()])
    for (const r of roots) rmSync(r, { recursive: true, force: true })
  }, 60_000)

  it("what the optimizer saw is the attacker view; usage is per run; the model's replies are the notes", { timeout: 120_000 }, async () => {
    const out = root()
    const { result } = await attack({
      url: bridge.url,
      name: 'probe',
      kwargs: { runs: 2, llm: true },
      goals: ['leak it'],
      root: out,
      label: 'probe',
    })
    const [t] = result.taskResults
    expect(t.error).toBeNull()
    expect(t.stopReason).toBe('done')
    expect(t.runs).toHaveLength(2)
    for (const run of t.runs) {
      const injected = run.trajectory.find((i) => i.type === 'ControllableInjection')
      expect(injected).toBeDefined()
      const account = JSON.parse((injected as { value: string }).value)
      expect(account.run).toBe(run.runNumber)
      // Event for event, what the bridge's optimizer held on its view is what the Controller filtered for it.
      const pre = run.attackerView.findIndex((i) => i.type === 'ControllablePreCallEvent')
      const expected = run.attackerView
        .slice(0, pre + 1)
        .map((i) => [i.type, 'observable' in i ? i.observable.name : 'controllable' in i ? i.controllable.name : null])
      expect(account.view.map((v: unknown[]) => v.slice(0, 2))).toEqual(expected)
      expect(run.runUsageDelta.calls).toBe(1)
      expect(run.runUsageDelta.cost).toBeGreaterThan(0)
    }
    expect(account0(t.runs[0]).offered.controllables).toEqual([['user_message', 'user', "the user's message", 'text']])
    // The inbox is read-only: offered as an observable, its post-call declined by scope and visible on the view;
    // the model's identity (tag system) is not visible at all.
    expect(account0(t.runs[0]).offered.observables).toEqual([['inbox_email', 'tools/inbox', null]])
    expect(t.runs[0].attackerView.map((i) => i.type)).toContain('ControllableNoInjection')
    expect(t.llmUsage.calls).toBe(2)
    const record = await readTask(
      new NodeFsStorage(out),
      join(result.resultsDir!, 'tasks', filesUnder(join(out, result.resultsDir!, 'tasks'))[0].split('/')[0]),
    )
    expect(record.attackerNotes?.notes.map((n) => [n.run, n.during])).toEqual([
      [1, 'RunStartEvent'],
      [2, 'RunStartEvent'],
    ])
    expect(record.attackerNotes?.notes[0].text).toMatch(/probe run 1/)
    expect(record.iterations?.runs.map((r) => r.done)).toEqual([false, true])
  })

  it(
    'an optimizer that raises, one too slow, a bridge that dies: each its own task in error; the others finish; nothing written before changes',
    { timeout: 240_000 },
    async () => {
      const out = root()
      // Written first, then compared byte for byte after the faults.
      const before = await attack({ url: bridge.url, name: 'probe', goals: ['earlier attack'], root: out, label: 'earlier' })
      expect(before.result.taskResults[0].stopReason).toBe('done')
      const earlierDir = before.result.resultsDir!
      const snapshot = new Map(filesUnder(join(out, earlierDir)).map((f) => [f, readFileSync(join(out, earlierDir, f))]))

      const raises = await attack({
        url: bridge.url,
        name: 'probe',
        kwargs: { fail_on: 'ControllablePreCallEvent', fail_goal: 'two' },
        goals: ['task one', 'task two', 'task three'],
        root: out,
        label: 'raises',
      })
      expect(raises.result.taskResults.map((t) => t.stopReason)).toEqual(['done', 'error', 'done'])
      expect(raises.result.taskResults[1].error).toMatch(
        /answered 500 optimizer_error: RuntimeError: the probe optimizer failed on purpose in ControllablePreCallEvent/,
      )
      expect(raises.result.taskResults[1].runs[0]).toMatchObject({ errored: true, evaluated: false })

      const slow = await attack({
        url: bridge.url,
        name: 'probe',
        kwargs: { sleep_s: 30, sleep_goal: 'two' },
        client: { requestTimeoutMs: 1500 },
        goals: ['task one', 'task two', 'task three'],
        root: out,
        label: 'slow',
      })
      expect(slow.result.taskResults.map((t) => t.stopReason)).toEqual(['done', 'error', 'done'])
      expect(slow.result.taskResults[1].error).toMatch(
        /optimizer-sessions\/[0-9a-f-]{36}\/events: no answer within 1.5 s \(per-request timeout\)/,
      )

      // Its own bridge, killed while the optimizer thinks about task two's first event.
      const doomed = await spawnBridgeOptimizers([
        '--optimizer',
        `probe=${PROBE}`,
        '--optimizer-kwargs',
        '{"sleep_s": 60, "sleep_goal": "two"}',
      ])
      try {
        const dies = await attack({
          url: doomed.url,
          name: 'probe',
          goals: ['task one', 'task two', 'task three'],
          root: out,
          label: 'dies',
          onTaskStart: (index) => {
            if (index === 2) setTimeout(() => doomed.child.kill('SIGKILL'), 1000)
          },
        })
        const [one, two, three] = dies.result.taskResults
        expect(one.stopReason).toBe('done')
        expect(two.stopReason).toBe('error')
        expect(two.error).toMatch(/the connection was dropped before an answer came|no connection/)
        // The bridge is gone: the next task cannot open its session, and says so (it does not hang).
        expect(three.stopReason).toBe('error')
        expect(three.error).toMatch(/POST http:\/\/127\.0\.0\.1:\d+\/optimizer-sessions: no connection/)
      } finally {
        await doomed.close()
      }

      const after = filesUnder(join(out, earlierDir))
      expect(after).toEqual([...snapshot.keys()])
      for (const [f, bytes] of snapshot) expect(readFileSync(join(out, earlierDir, f)).equals(bytes), f).toBe(true)
    },
  )
})

function account0(run: ThreatModelResult['taskResults'][number]['runs'][number]) {
  return JSON.parse((run.trajectory.find((i) => i.type === 'ControllableInjection') as { value: string }).value)
}
