/**
 * End-to-end plumbing for tests: a reference target served over loopback
 * HTTP, reached through HttpTarget, attacked by a real Controller that writes
 * a real results tree into a temporary folder.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openAiClientFactory } from '../adapters/llm/openaiClient'
import { NodeFsStorage } from '../adapters/storage/nodeFsStorage'
import { claimFromFile, ClaimFileSchema, type ClaimFile } from '../claims'
import { Controller, type LLMClient, type LLMConfig, type OptimizerFactory, type PriceTable, type ThreatModelResult } from '../core/engine'
import { scopeOf } from '../core/tags'
import { connectHttpTarget, type HttpTargetFactory, type HttpTargetOptions } from '../protocol'
import { createTargetServer, type RunningTargetServer } from '../servers/target'
import { referenceTargetOptions, type ReferenceTargetName } from '../reference-targets'

export const SHIPPED_CLAIMS = join(__dirname, '../../public/claims')

export function shippedClaim(file: string): ClaimFile {
  return ClaimFileSchema.parse(JSON.parse(readFileSync(join(SHIPPED_CLAIMS, file), 'utf8')))
}

/** A shipped claim narrowed to some of its tasks (by config value of `defence`). */
export function claimWith(file: string, defences: readonly string[]): ClaimFile {
  const claim = shippedClaim(file)
  return { ...claim, tasks: claim.tasks.filter((t) => defences.includes(t.config.defence)) }
}

/** `seed` seeds a random target's draws (the stochastic one). */
export async function serveReference(name: ReferenceTargetName, seed?: number): Promise<RunningTargetServer> {
  return createTargetServer(referenceTargetOptions(name, {}, 0, seed)).listen(0, '127.0.0.1')
}

export interface ThreatModelRun {
  readonly factory: HttpTargetFactory | string
  readonly claim: ClaimFile
  readonly optimizerFactory: OptimizerFactory
  readonly scope: readonly string[]
  readonly readOnly?: readonly string[]
  readonly llm?: LLMConfig
  readonly judge?: LLMConfig
  readonly maxRuns?: number
  readonly costCap?: number
  /** Prices by model name (a loopback model server is otherwise unpriced). */
  readonly prices?: PriceTable
  readonly timeCapS?: number
  readonly includeFeedback?: boolean
  /** Count a success the attacker echoed (the echo rule) as a success. */
  readonly countEchoes?: boolean
  readonly root?: string
  readonly clientOptions?: HttpTargetOptions
}

/**
 * The folders runThreatModel made itself (never a caller's own `root`). Its
 * callers read the tree after the run, so it cannot remove them: each test
 * file calls removeThreatModelRoots in its afterAll, which runs also when a
 * test failed.
 */
const madeRoots = new Set<string>()

export function removeThreatModelRoots(): void {
  for (const root of madeRoots) rmSync(root, { recursive: true, force: true })
  madeRoots.clear()
}

export async function runThreatModel(
  run: ThreatModelRun,
): Promise<{ result: ThreatModelResult; root: string; factory: HttpTargetFactory }> {
  const factory = typeof run.factory === 'string' ? await connectHttpTarget(run.factory, run.clientOptions) : run.factory
  const root = run.root ?? madeRoot()
  const clients = openAiClientFactory({ maxRetries: 0, configured: run.prices ?? {} })
  const judge = run.judge ? (): LLMClient => clients(run.judge!, run.costCap ?? null, new AbortController().signal) : undefined
  const domain = factory.surfaces.domain
  const controller = new Controller({
    optimizerFactory: run.optimizerFactory,
    targetFactory: factory,
    securityClaim: claimFromFile(run.claim, { judge }),
    scope: scopeOf(run.scope.map((n) => domain.get(n)!)),
    readOnly: scopeOf((run.readOnly ?? []).map((n) => domain.get(n)!)),
    llmConfig: run.llm ?? null,
    llmClientFactory: run.llm ? clients : null,
    taskCostCapUsd: run.costCap ?? null,
    taskTimeCapS: run.timeCapS ?? null,
    maxRunsPerTask: run.maxRuns ?? 12,
    includeFeedback: run.includeFeedback ?? true,
    countEchoes: run.countEchoes ?? false,
    storage: new NodeFsStorage(root),
    domain,
    targetLabel: factory.manifest.name,
  })
  return { result: await controller.run(), root, factory }
}

function madeRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'redscope-e2e-'))
  madeRoots.add(root)
  return root
}

/** Every file under a folder, relative paths, sorted. */
export function filesUnder(root: string, dir = ''): string[] {
  return readdirSync(join(root, dir))
    .flatMap((name) => {
      const rel = dir ? `${dir}/${name}` : name
      return statSync(join(root, rel)).isDirectory() ? filesUnder(root, rel) : [rel]
    })
    .sort()
}

/** Every byte of a results tree as one string, to prove a secret is nowhere in it. */
export function treeText(root: string): string {
  return filesUnder(root)
    .map((f) => readFileSync(join(root, f), 'utf8'))
    .join('\n')
}
