/**
 * Optimizer-over-HTTP: what serving an optimizer costs per event.
 *
 * 1. superred's Controller, the same superred optimizer class in process and served by the bridge (reached through
 *    redscope_bridge.RemoteOptimizer): a scripted optimizer against the probe target (the protocol's worst case),
 *    and PAIR against ChatbotTarget with the fake LLM as both models. Measured in Python
 *    (redscope_bridge.testing.optimizer_bench).
 * 2. redscope's Controller, as the CLI and the browser drive it: the probe target in process, a scripted optimizer
 *    in process (ScriptedOptimizer) against the same script served by the bridge (redscope_bridge.testing.bench:
 *    Scripted) through RemoteOptimizer. Two implementations of one script: what differs is the protocol.
 * Rounds interleave; medians. Printed, never asserted.
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { Controller, SecurityClaim, targetFactory, evaluationResult, score, type OptimizerFactory, type Task } from '../src/core/engine'
import { ScriptedOptimizer } from '../src/core/engine/testkit'
import { MemoryStorage } from '../src/core/results'
import { scopeOf } from '../src/core/tags'
import { connectServedOptimizer } from '../src/protocol/optimizer'
import { probeFactory } from '../src/testing/probeTarget'
import { pythonEnv, REPO_ROOT, spawnBridgeOptimizers, VENV_BIN, venvHas } from '../src/testing/pythonBridge'
import { med, row } from './util'

const TASKS = 4
const RUNS = 25
const ROUNDS = 5
/** RunStart, the user message's pre-call, the inbox's post-call, RunEnd. */
const EVENTS_PER_RUN = 4

function never(i: number): Task {
  return {
    goal: { description: `bench task ${i}` },
    configureTarget: () => {},
    evaluate: async () => evaluationResult({ success: false, primaryScore: score(0) }),
  }
}

async function workload(optimizerFactory: OptimizerFactory): Promise<number> {
  const create = probeFactory()
  const domain = create().securityDomain
  const controller = new Controller({
    optimizerFactory,
    targetFactory: targetFactory(create, TASKS),
    securityClaim: SecurityClaim.fromTasks(Array.from({ length: TASKS }, (_, i) => never(i))),
    scope: scopeOf([domain.get('user')!, domain.get('inbox')!]),
    maxRunsPerTask: RUNS,
    storage: new MemoryStorage(),
  })
  const start = performance.now()
  const result = await controller.run()
  const took = performance.now() - start
  const failed = result.taskResults.find((t) => t.error !== null)
  if (failed) throw new Error(`a task failed: ${failed.error!.slice(0, 300)}`)
  return took
}

export default async function optimizersBench(): Promise<void> {
  if (!venvHas('python')) {
    console.log('optimizers: no .venv (run bash scripts/test-all.sh once to make it); nothing measured')
    return
  }
  const py = spawnSync(join(VENV_BIN, 'python'), ['-m', 'redscope_bridge.testing.optimizer_bench'], {
    cwd: REPO_ROOT,
    env: pythonEnv(),
    stdio: 'inherit',
  })
  if (py.status !== 0) throw new Error(`redscope_bridge.testing.optimizer_bench exited ${py.status}`)

  const bridge = await spawnBridgeOptimizers(['--optimizer', 'scripted=redscope_bridge.testing.bench:Scripted'])
  try {
    const served = await connectServedOptimizer(bridge.url, 'scripted', {})
    const local: OptimizerFactory = () =>
      new ScriptedOptimizer({ inject: (e) => (e.type === 'ControllablePreCallEvent' ? 'payload' : null) })
    await workload(local)
    await workload(served.optimizerFactory)
    const a: number[] = []
    const b: number[] = []
    for (let r = 0; r < ROUNDS; r++) {
      a.push(await workload(local))
      b.push(await workload(served.optimizerFactory))
    }
    const events = TASKS * RUNS * EVENTS_PER_RUN
    const ratios = a.map((x, i) => b[i] / x).sort((x, y) => x - y)
    row(
      `redscope Controller, scripted, ${TASKS} tasks x ${RUNS} runs, in process`,
      `${med(a).toFixed(0)} ms for ${events} events (median of ${ROUNDS})`,
    )
    row(
      '  the same script served, over loopback HTTP',
      `${med(b).toFixed(0)} ms: ${((med(b) - med(a)) / events).toFixed(2)} ms more per event`,
      `ratio ${(med(b) / med(a)).toFixed(2)}x (per round ${ratios[0].toFixed(2)}x to ${ratios.at(-1)!.toFixed(2)}x; baseline: in process)`,
    )
  } finally {
    await bridge.close()
  }
}
