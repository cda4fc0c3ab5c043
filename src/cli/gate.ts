/**
 * What `compare`, `sweep` and `frontier` share to gate a pipeline: `--fail-on`
 * (exit 1 when a rule matches, each reason named on stderr), `--junit FILE`
 * and `--sarif FILE` (written only once everything was read and checked).
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { NodeFsStorage } from '../adapters/storage/nodeFsStorage'
import {
  CompareInputError,
  gateFailures,
  junitXml,
  parseFailOn,
  readSide,
  sarifLog,
  type Comparison,
  type FailOn,
  type Side,
  type TaskChangeKind,
} from '../core/compare'
import { EXIT_FINDINGS, EXIT_OK, UsageError, type CliIo } from './io'

export interface GateFlags {
  readonly 'fail-on'?: string[]
  readonly junit?: string
  readonly sarif?: string
  readonly 'sarif-location'?: string
}

/** The --fail-on rules, checked before any work is done; `regression` only where there is a baseline. */
export function parseGateFlags(flags: GateFlags, withBaseline: boolean): FailOn[] {
  return (flags['fail-on'] ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '')
    .map((v) => {
      let rule: FailOn
      try {
        rule = parseFailOn(v)
      } catch (e) {
        throw new UsageError(`--fail-on ${(e as Error).message}`)
      }
      if (rule.kind === 'regression' && !withBaseline) {
        throw new UsageError(
          '--fail-on regression needs a baseline: run `redscope compare BASE HEAD` on these results (breach and asr>P work here)',
        )
      }
      return rule
    })
}

export const wantsGate = (flags: GateFlags) => (flags['fail-on']?.length ?? 0) > 0 || flags.junit !== undefined || flags.sarif !== undefined

async function writeOut(flag: string, path: string, text: string): Promise<void> {
  try {
    await mkdir(dirname(path), { recursive: true })
    await writeFile(path, text)
  } catch (e) {
    throw new UsageError(`${flag} ${path}: cannot be written (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`)
  }
}

/**
 * Writes the reports asked for and says whether the gate fails: EXIT_FINDINGS with each reason on stderr, else EXIT_OK.
 * `location` is where SARIF results point when --sarif-location is not given.
 */
export async function applyGate(
  flags: GateFlags,
  rules: readonly FailOn[],
  head: Side,
  comparison: Comparison | null,
  changes: ReadonlyMap<string, TaskChangeKind> | undefined,
  location: string,
  io: CliIo,
): Promise<number> {
  if (flags.junit !== undefined) await writeOut('--junit', flags.junit, junitXml(head, changes))
  if (flags.sarif !== undefined) {
    const log = sarifLog(head, { location: flags['sarif-location'] ?? location, changes })
    await writeOut('--sarif', flags.sarif, `${JSON.stringify(log, null, 2)}\n`)
  }
  const failures = gateFailures(rules, head, comparison)
  for (const f of failures) io.stderr(`${f}\n`)
  return failures.length > 0 ? EXIT_FINDINGS : EXIT_OK
}

/** A results folder read as a gate's side; problems as usage errors (exit 2) naming the path. */
export async function readGateSide(path: string): Promise<Side> {
  try {
    return await readSide(new NodeFsStorage(path), path)
  } catch (e) {
    if (e instanceof CompareInputError) throw new UsageError(e.message)
    throw e
  }
}

/** The sweep's or frontier's own results, gated: after the command, with its exit code kept when it is worse. */
export async function gateAfterRun(
  flags: GateFlags,
  rules: readonly FailOn[],
  out: string,
  location: string,
  code: number,
  io: CliIo,
): Promise<number> {
  if (!wantsGate(flags) || code === 2) return code
  const gate = await applyGate(flags, rules, await readGateSide(out), null, undefined, location, io)
  return Math.max(code, gate)
}

/** A target's URL as a SARIF location: without credentials, should it carry any. */
export function targetLocation(url: string): string {
  try {
    const u = new URL(url)
    u.username = ''
    u.password = ''
    return u.toString()
  } catch {
    return url
  }
}
