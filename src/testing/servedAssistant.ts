/**
 * What the frontier commands' tests share: redscope's demo assistant served on
 * loopback by the CLI in its own process (stopped after the file), a temp
 * folder, and the CLI's main run in process with its output kept.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { main } from '../cli/main'
import { FrontierFileSchema, type FrontierFile } from '../core/frontier'
import { CliProcesses } from './cliProcesses'

export interface ServedAssistant {
  /** A temp folder for the file's outputs, removed after it. */
  readonly dir: string
  /** The assistant's address, once beforeAll has started it. */
  target: string
}

/** Registers the file's beforeAll/afterAll that start and stop the assistant. */
export function servedAssistant(prefix: string): ServedAssistant {
  const served: ServedAssistant = { dir: mkdtempSync(join(tmpdir(), prefix)), target: '' }
  const procs = new CliProcesses()
  beforeAll(async () => {
    const p = procs.start(['serve-target', 'assistant', '--port', '0', '--concurrency', '16'])
    served.target = (await p.waitFor(/serving assistant at (http:\/\/127\.0\.0\.1:\d+)/))[1]
  }, 60_000)
  afterAll(async () => {
    await procs.stopAll()
    rmSync(served.dir, { recursive: true, force: true })
  }, 60_000)
  return served
}

export async function runMain(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const code = await main(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) })
  return { code, stdout, stderr }
}

export const readFrontier = (out: string): FrontierFile =>
  FrontierFileSchema.parse(JSON.parse(readFileSync(join(out, 'frontier.json'), 'utf8')))
