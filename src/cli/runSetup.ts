/** Turning `redscope run` flags into the pieces of a Controller, each failure one clear line. */
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { replayOptimizerFactory, recordedRun, type RecordedRun } from '../attackers'
import {
  claimFileFromServed,
  claimFromFile,
  ClaimFileError,
  goalEchoText,
  goalEchoWarnings,
  parseClaimFile,
  type ClaimFile,
} from '../claims'
import { scopeOf, validateScope, type Scope, type SecurityDomain } from '../core/tags'
import { readTask, readTrajectory, TrajectoryFile } from '../core/results'
import { NodeFsStorage } from '../adapters/storage/nodeFsStorage'
import { formatPath } from '../core/tags'
import type { EvaluatorDeps } from '../claims'
import {
  connectHttpTarget,
  TargetRequestError,
  type CapacityWait,
  type HttpTargetFactory,
  type HttpTargetOptions,
  type Manifest,
} from '../protocol'
import { UsageError } from './io'

export async function readClaim(path: string, deps: EvaluatorDeps) {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    throw new UsageError(`${path}: ${code === 'ENOENT' ? 'no such file' : `cannot be read (${code ?? String(e)})`}`)
  }
  try {
    const file: ClaimFile = parseClaimFile(text, path)
    return { file, claim: claimFromFile(file, deps, path) }
  } catch (e) {
    if (e instanceof ClaimFileError) throw new UsageError(e.message)
    throw e
  }
}

/**
 * `--claim FILE`, or without it the claim the target serves itself (its manifest's `claim`: a superred
 * claim on the bridge, configured and judged on the target's side). `where` names it in messages.
 */
export async function claimFor(
  path: string | undefined,
  manifest: Manifest,
  deps: EvaluatorDeps,
): Promise<{ file: ClaimFile; where: string }> {
  if (path !== undefined) return { file: (await readClaim(path, deps)).file, where: path }
  if (manifest.claim === null) {
    throw new UsageError(`--claim: ${manifest.name} serves no claim of its own, so a claim file is needed (--claim CLAIM.json)`)
  }
  return { file: claimFileFromServed(manifest.claim, manifest.name), where: `${manifest.name}'s served claim` }
}

/**
 * One warning line on stderr per task whose check's regex matches its own goal text: pasting the goal would make
 * the target echo what the check looks for (such runs are not counted as breaches unless --count-echoes).
 */
export function warnGoalEchoes(file: ClaimFile, where: string, command: string, stderr: (s: string) => void): void {
  for (const w of goalEchoWarnings(file)) stderr(`redscope ${command}: warning: ${where}: ${goalEchoText(w)}\n`)
}

/** Scope names to the target's own tag objects; unknown names and an empty pair are refused, other findings noted. */
export function resolveScopes(
  domain: SecurityDomain,
  scope: string[],
  readOnly: string[],
  note: (s: string) => void,
): { scope: Scope; readOnly: Scope } {
  const findings = validateScope(domain, scope, readOnly)
  const fatal = findings.find((f) => f.code === 'unknown_tag' || f.code === 'empty_scope')
  if (fatal) {
    const known = fatal.code === 'unknown_tag' ? ` (the target's tags: ${domain.tags.map((t) => t.name).join(', ')})` : ''
    throw new UsageError(`${fatal.message}${known}`)
  }
  // Not an antichain, overlaps: the reference runs them, so do we, but say so.
  for (const f of findings) note(`note: ${f.severity}: ${f.message}\n`)
  const tags = (names: string[]) => scopeOf(names.map((n) => domain.get(n)!))
  return { scope: tags(scope), readOnly: tags(readOnly) }
}

/** `--replay PATH`: a trajectory file (run_NNNNN.json) or a task folder (its first successful run, else its best). */
export async function readReplay(path: string): Promise<RecordedRun> {
  let isDir: boolean
  try {
    isDir = (await stat(path)).isDirectory()
  } catch {
    throw new UsageError(`--replay ${path}: no such file or folder`)
  }
  try {
    if (!isDir) {
      const parsed = TrajectoryFile.safeParse(JSON.parse(await readFile(path, 'utf8')))
      if (!parsed.success)
        throw new UsageError(
          `--replay ${path}: not a trajectory file: ${parsed.error.issues
            .slice(0, 2)
            .map((i) => `${formatPath(i.path)}: ${i.message}`)
            .join('; ')}`,
        )
      return recordedRun(parsed.data.trajectory)
    }
    const storage = new NodeFsStorage(path)
    const task = await readTask(storage, '')
    const runs = task.iterations?.runs ?? []
    if (runs.length === 0) throw new UsageError(`--replay ${path}: the task has no recorded runs`)
    const pick = runs.find((r) => r.success) ?? [...runs].sort((a, b) => b.primary_score - a.primary_score)[0]
    const file = await readTrajectory(storage, '', pick.run_number)
    if (file === null)
      throw new UsageError(`--replay ${path}: ${join('trajectories', `run_${String(pick.run_number).padStart(5, '0')}.json`)} is missing`)
    return recordedRun(file.trajectory)
  } catch (e) {
    if (e instanceof UsageError) throw e
    throw new UsageError(`--replay ${path}: ${(e as Error).message}`)
  }
}

export function replayFactory(run: RecordedRun) {
  if (run.length === 0) throw new UsageError('--replay: the recorded run has no injections or declines to replay')
  return replayOptimizerFactory([run])
}

/** A finite number flag, or a usage error naming it. */
export function numberFlag(name: string, value: string | undefined, check: (n: number) => boolean, what: string): number | undefined {
  if (value === undefined) return undefined
  const n = Number(value)
  if (value.trim() === '' || !Number.isFinite(n) || !check(n)) throw new UsageError(`--${name} ${value}: must be ${what}`)
  return n
}

/**
 * Config and query names the claim uses that the target does not declare.
 * The reference never checks them (the task would fail at run time); the CLI
 * refuses up front, naming the field, since it is almost always the wrong
 * claim for this target.
 */
export function checkClaimAgainstManifest(file: ClaimFile, manifest: Manifest, where: string): void {
  const configs = new Set(manifest.config_specs.map((c) => c.name))
  const queries = new Set(manifest.query_specs.map((q) => q.name))
  const known = (set: Set<string>) => [...set].join(', ') || 'none'
  file.tasks.forEach((task, i) => {
    if (task.served_task !== undefined) {
      const served = manifest.claim?.tasks.length ?? 0
      if (task.served_task > served) {
        throw new UsageError(
          `${where}: tasks[${i}].served_task: ${manifest.name} serves ${served === 0 ? 'no claim' : `${served} task(s)`}, not task ${task.served_task}`,
        )
      }
    }
    for (const name of Object.keys(task.config)) {
      if (!configs.has(name)) {
        throw new UsageError(`${where}: tasks[${i}].config.${name}: ${manifest.name} has no config '${name}' (known: ${known(configs)})`)
      }
    }
    const e = task.evaluator
    const query = e.type === 'query_match' || e.type === 'query_evaluation' ? e.query : e.type === 'llm_judge' ? e.query?.name : undefined
    if (query !== undefined && !queries.has(query)) {
      throw new UsageError(`${where}: tasks[${i}].evaluator.query: ${manifest.name} has no query '${query}' (known: ${known(queries)})`)
    }
  })
}

/** How often a wait on a full target is said again while it lasts. */
const CAPACITY_NOTE_EVERY_MS = 30_000

/**
 * What every factory of one command does on a 503 `capacity`: wait up to `--capacity-wait` seconds, and say
 * so on stderr at once and every 30 s after, never once per task (a sweep's many sessions wait together).
 */
export function capacityOptions(
  waitS: number | undefined,
  say: (line: string) => void,
): Pick<HttpTargetOptions, 'capacityWaitMs' | 'onCapacityWait'> {
  let lastSaid = -Infinity
  return {
    capacityWaitMs: waitS === undefined ? undefined : waitS * 1000,
    onCapacityWait: (w: CapacityWait) => {
      const now = Date.now()
      if (now - lastSaid < CAPACITY_NOTE_EVERY_MS) return
      const first = lastSaid === -Infinity
      lastSaid = now
      say(
        first
          ? `the target has no free session (503 capacity: ${JSON.stringify(w.message)}): retrying every ${w.waitS} s, for up to ${w.limitS} s before giving up (--capacity-wait)`
          : `still waiting for a free session of the target (${w.waitedS} s of ${w.limitS} s)`,
      )
    },
  }
}

/** Reads the target's manifest; an unreachable or foreign server is a usage error naming the endpoint. */
export async function connectTarget(
  url: string,
  requestTimeoutS: number | undefined,
  concurrency: number | undefined,
  capacity: Pick<HttpTargetOptions, 'capacityWaitMs' | 'onCapacityWait'> = {},
): Promise<HttpTargetFactory> {
  try {
    return await connectHttpTarget(url, {
      token: process.env.REDSCOPE_TARGET_TOKEN || undefined,
      requestTimeoutMs: requestTimeoutS === undefined ? undefined : requestTimeoutS * 1000,
      maxConcurrency: concurrency,
      ...capacity,
    })
  } catch (e) {
    if (e instanceof TargetRequestError) throw new UsageError(`target unreachable or not a superred-target-http/1 target: ${e.message}`)
    throw e
  }
}

/** A refused write: a full disk or quota, no permission, a read-only or missing place. */
export function isStorageError(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code
  return (
    (e as { name?: string })?.name === 'QuotaExceededError' ||
    (typeof code === 'string' && ['ENOSPC', 'EDQUOT', 'EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EISDIR', 'EEXIST', 'ENOENT'].includes(code))
  )
}
