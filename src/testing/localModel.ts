/**
 * The real local model in tests: whether SmolLM2 is pulled (scripts/test-all.sh
 * pulls it, `redscope models pull smollm2`), and `redscope serve-llm` started
 * as a process, as a user starts it. Without the model those tests are
 * skipped, visibly, unless REDSCOPE_REQUIRE_LOCAL_MODEL=1 (test-all.sh sets
 * it): then a missing model fails them.
 */
import { statSync } from 'node:fs'
import { cachedModelPath, defaultModelsDir, SMOLLM2 } from '../adapters/models'
import type { CliProcess, CliProcesses } from './cliProcesses'

export function localModelAvailable(): boolean {
  const path = cachedModelPath(defaultModelsDir(), SMOLLM2)
  let ok = false
  try {
    ok = statSync(path).size === SMOLLM2.bytes
  } catch {
    ok = false
  }
  if (!ok && process.env.REDSCOPE_REQUIRE_LOCAL_MODEL === '1') {
    throw new Error(
      `REDSCOPE_REQUIRE_LOCAL_MODEL=1 but ${path} is missing: run \`node bin/redscope.mjs models pull smollm2\` (bash scripts/test-all.sh does)`,
    )
  }
  return ok
}

export interface LocalLlm {
  /** e.g. http://127.0.0.1:PORT */
  readonly url: string
  /** `${url}/v1`, an OpenAI client's base URL. */
  readonly baseURL: string
  readonly process: CliProcess
}

/**
 * `redscope serve-llm --port 0 ARGS` through `processes` (stopped by its stopAll), resolved once it prints
 * its address: after the model has loaded, 1-2 s on a quiet machine, longer on a busy one.
 */
export async function startLocalLlm(
  processes: CliProcesses,
  args: readonly string[] = [],
  env: Record<string, string> = {},
): Promise<LocalLlm> {
  const p = processes.start(['serve-llm', '--port', '0', ...args], env)
  const m = await p.waitFor(/^serving \S+ \(.*\) at (http:\/\/\S+)\/v1, /m, 120_000)
  return { url: m[1], baseURL: `${m[1]}/v1`, process: p }
}
