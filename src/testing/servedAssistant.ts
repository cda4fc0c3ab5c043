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
  return servedReferenceTarget('assistant', prefix, ['--concurrency', '16'])
}

/** The same for any reference target, with serve-target's flags (`--seed`, `--concurrency`...). */
export function servedReferenceTarget(name: string, prefix: string, flags: readonly string[]): ServedAssistant {
  const served: ServedAssistant = { dir: mkdtempSync(join(tmpdir(), prefix)), target: '' }
  const procs = new CliProcesses()
  beforeAll(async () => {
    const p = procs.start(['serve-target', name, '--port', '0', ...flags])
    served.target = (await p.waitFor(new RegExp(`serving ${name} at (http://127\\.0\\.0\\.1:\\d+)`)))[1]
  }, 60_000)
  // Removing thousands of results trees can take a while on a busy disk.
  afterAll(async () => {
    await procs.stopAll()
    rmSync(served.dir, { recursive: true, force: true })
  }, 180_000)
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
