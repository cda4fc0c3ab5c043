/**
 * The Python bridge's figures: protocol overhead of a bridged target against
 * the same target run in process by superred's Controller (same workload, one
 * command), how many sessions it serves at once before the first 503, and one
 * AgentDojo task through the bridge against the same task in process.
 * The measuring is Python (redscope_bridge.testing.bench); this runs it from
 * the repo's .venv (bash scripts/test-all.sh makes it).
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { pythonEnv, REPO_ROOT, VENV_BIN, venvHas } from '../src/testing/pythonBridge'

export default async function bridgeBench(): Promise<void> {
  if (!venvHas('python')) {
    console.log('bridge: no .venv (run bash scripts/test-all.sh once to make it); nothing measured')
    return
  }
  const r = spawnSync(join(VENV_BIN, 'python'), ['-m', 'redscope_bridge.testing.bench'], {
    cwd: REPO_ROOT,
    env: pythonEnv(),
    stdio: 'inherit',
  })
  if (r.status !== 0) throw new Error(`redscope_bridge.testing.bench exited ${r.status}`)
  // One AgentDojo task through the bridge against the same task in process (issue 12).
  const a = spawnSync(join(VENV_BIN, 'python'), ['-m', 'redscope_bridge.testing.agentdojo_bench'], {
    cwd: REPO_ROOT,
    env: pythonEnv(),
    stdio: 'inherit',
  })
  if (a.status !== 0) throw new Error(`redscope_bridge.testing.agentdojo_bench exited ${a.status}`)
}
