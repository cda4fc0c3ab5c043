/**
 * A sweep of the demo chatbot's threat models on the real local model, end to end (issue 33, point 6): `serve-llm`,
 * `serve-target chatbot --llm` and `redscope sweep`, three processes as a user runs them. The baseline, in the same
 * command, is the same sweep of the deterministic chatbot (the policy model the tests use), so the ratio says what
 * the real model costs in time. Figures: wall time, runs, seconds a run, and how many threat models broke the claim
 * (the model is stochastic: that count is one draw, not a property of the model). Needs the model:
 * `node bin/redscope.mjs models pull smollm2`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CliProcesses, runCli } from '../src/testing/cliProcesses'
import { localModelAvailable, startLocalLlm } from '../src/testing/localModel'
import { row } from './util'

const CLAIM = fileURLToPath(new URL('../public/claims/chatbot-secret-leak.json', import.meta.url))

interface Swept {
  readonly seconds: number
  readonly threatModels: number
  readonly runs: number
  readonly broke: number
}

/** One sweep, every threat model of the chatbot's forest, one run a task, the naive payload. */
async function sweep(target: string, out: string): Promise<Swept> {
  const started = performance.now()
  const r = await runCli([
    'sweep',
    '--target',
    target,
    '--claim',
    CLAIM,
    '--all',
    '--template',
    'naive',
    '--max-runs',
    '1',
    '--parallel',
    '2',
    '--out',
    out,
  ])
  const seconds = (performance.now() - started) / 1000
  if (r.code !== 0 && r.code !== 1) throw new Error(`redscope sweep exited ${r.code}: ${r.stderr.slice(-400)}`)
  let runs = 0
  let broke = 0
  let threatModels = 0
  for (const e of readdirSync(out, { withFileTypes: true })) {
    if (!e.isDirectory()) continue
    const manifest = JSON.parse(readFileSync(join(out, e.name, 'manifest.json'), 'utf8')) as {
      tasks: Array<{ n_runs: number; success: boolean }>
    }
    threatModels += 1
    runs += manifest.tasks.reduce((n, t) => n + t.n_runs, 0)
    if (manifest.tasks.some((t) => t.success)) broke += 1
  }
  return { seconds, threatModels, runs, broke }
}

function report(label: string, s: Swept): void {
  row(
    `${label}: wall s / threat models / runs / s a run / broke the claim`,
    s.seconds,
    s.threatModels,
    s.runs,
    s.seconds / Math.max(1, s.runs),
    s.broke,
  )
}

export default async function llmSweepBench(): Promise<void> {
  if (!localModelAvailable()) {
    console.log('llmSweep: SmolLM2 is not pulled (node bin/redscope.mjs models pull smollm2); nothing measured')
    return
  }
  const processes = new CliProcesses()
  const dir = mkdtempSync(join(tmpdir(), 'redscope-llm-sweep-'))
  try {
    const llm = await startLocalLlm(processes, ['--max-tokens', '48', '--concurrency', '2', '--quiet'])
    const onModel = processes.start(['serve-target', 'chatbot', '--port', '0', '--think-ms', '0', '--llm', llm.baseURL])
    const modelUrl = (await onModel.waitFor(/^serving chatbot at (http:\/\/\S+) .*replies by the model smollm2 at /m, 60_000))[1]
    const policy = processes.start(['serve-target', 'chatbot', '--port', '0', '--think-ms', '0'])
    const policyUrl = (await policy.waitFor(/^serving chatbot at (http:\/\/\S+)/m, 60_000))[1]
    const baseline = await sweep(policyUrl, join(dir, 'policy'))
    report('deterministic chatbot (baseline)', baseline)
    const real = await sweep(modelUrl, join(dir, 'model'))
    report('chatbot on SmolLM2-135M', real)
    row(
      'on the model / deterministic: wall time, s a run',
      real.seconds / baseline.seconds,
      real.seconds / Math.max(1, real.runs) / (baseline.seconds / Math.max(1, baseline.runs)),
    )
  } finally {
    await processes.stopAll()
    rmSync(dir, { recursive: true, force: true })
  }
}
