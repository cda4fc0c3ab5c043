/**
 * `redscope run`: one threat model against a live HTTP target, written as a
 * superred results tree (plus redscope's extra files). The API key comes
 * from OPENAI_API_KEY only and the target token from REDSCOPE_TARGET_TOKEN:
 * neither is ever printed or written (superred persists `{model}` only).
 */
import { setMaxListeners } from 'node:events'
import { join } from 'node:path'
import { humanOptimizerFactory, isInjectOn, llmOptimizerFactory, templateOptimizerFactory, type InjectOn } from '../../attackers'
import { openAiClientFactory } from '../../adapters/llm/openaiClient'
import { NodeFsStorage } from '../../adapters/storage/nodeFsStorage'
import { combineReporters, Controller, isResultsWriteFailure, type LLMClient, type LLMConfig, type OptimizerFactory } from '../../core/engine'
import type { Storage } from '../../core/results'
import { connectHttpTarget, TargetRequestError, type HttpTargetFactory } from '../../protocol'
import { splitList, type CommandArgs } from '../command'
import type { RunOptions } from '../definitions/run'
import { EXIT_FINDINGS, EXIT_OK, UsageError, type CliIo } from '../io'
import { lineReporter, summaryLines } from '../runReporter'
import { checkClaimAgainstManifest, numberFlag, readClaim, readReplay, replayFactory, resolveScopes } from '../runSetup'
import { resolveTemplates } from '../templates'
import { ttyPrompter } from '../ttyPrompter'

const OPTIMIZERS = ['template', 'llm', 'replay', 'human'] as const
type OptimizerKind = (typeof OPTIMIZERS)[number]

async function connect(url: string, requestTimeoutS: number | undefined, concurrency: number | undefined): Promise<HttpTargetFactory> {
  try {
    return await connectHttpTarget(url, {
      token: process.env.REDSCOPE_TARGET_TOKEN || undefined,
      requestTimeoutMs: requestTimeoutS === undefined ? undefined : requestTimeoutS * 1000,
      maxConcurrency: concurrency,
    })
  } catch (e) {
    if (e instanceof TargetRequestError) throw new UsageError(`target unreachable or not a superred-target-http/1 target: ${e.message}`)
    throw e
  }
}

/** What the command builds that a test may replace (a storage that fills up). */
export interface RunDeps {
  readonly storage?: (out: string) => Storage
}

/** A refused write: a full disk or quota, no permission, a read-only or missing place. */
function isStorageError(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code
  return (e as { name?: string })?.name === 'QuotaExceededError' ||
    (typeof code === 'string' && ['ENOSPC', 'EDQUOT', 'EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EISDIR', 'EEXIST', 'ENOENT'].includes(code))
}

export async function runCommand({ options }: CommandArgs<RunOptions>, io: CliIo, deps: RunDeps = {}): Promise<number> {
  // Both required: the parser has already refused a command line without them.
  const targetUrl = options.target!
  const claimPath = options.claim!
  const kind = (options.optimizer ?? 'template') as OptimizerKind
  if (!OPTIMIZERS.includes(kind)) throw new UsageError(`--optimizer ${kind}: must be one of ${OPTIMIZERS.join(', ')}`)
  const injectOnFlag = options['inject-on']
  if (injectOnFlag !== undefined && !isInjectOn(injectOnFlag)) throw new UsageError(`--inject-on ${injectOnFlag}: must be pre, post or both`)
  const int = (n: number) => Number.isInteger(n)
  const maxRuns = numberFlag('max-runs', options['max-runs'], (n) => int(n) && n >= 1, 'an integer of at least 1')
  const concurrency = numberFlag('concurrency', options.concurrency, (n) => int(n) && n >= 1, 'an integer of at least 1')
  const costCap = numberFlag('cost-cap', options['cost-cap'], (n) => n >= 0, 'a non-negative amount of USD')
  const timeCap = numberFlag('time-cap', options['time-cap'], (n) => n > 0, 'a positive number of seconds')
  const requestTimeout = numberFlag('request-timeout', options['request-timeout'], (n) => n > 0, 'a positive number of seconds')
  const llmTimeout = numberFlag('llm-timeout', options['llm-timeout'], (n) => n > 0, 'a positive number of seconds')
  const model = options.model
  const apiKey = process.env.OPENAI_API_KEY || null
  if (kind === 'llm' && !model) throw new UsageError('--optimizer llm needs --model M (and --base-url U for a server other than OpenAI)')
  if (kind === 'replay' && !options.replay) throw new UsageError('--optimizer replay needs --replay RUN.json or a task folder')
  if (options.template !== undefined && kind !== 'template') throw new UsageError('--template only applies to --optimizer template')

  // The judge: its own model if given, else the attacker's.
  const judgeModel = options['judge-model'] ?? model
  const judgeConfig: LLMConfig | null = judgeModel
    ? { model: judgeModel, apiBase: options['judge-base-url'] ?? options['base-url'] ?? null, apiKey }
    : null
  const clients = openAiClientFactory(llmTimeout === undefined ? {} : { timeoutMs: llmTimeout * 1000 })
  const judge = judgeConfig === null ? undefined
    : (): LLMClient => clients(judgeConfig, costCap ?? null, new AbortController().signal)
  const { file: claimFile, claim } = await readClaim(claimPath, { judge })

  let optimizerFactory: OptimizerFactory
  let closePrompter = () => {}
  if (kind === 'template') {
    optimizerFactory = templateOptimizerFactory({ templates: await resolveTemplates(options.template ?? []), injectOn: (injectOnFlag as InjectOn) ?? 'pre' })
  } else if (kind === 'llm') {
    optimizerFactory = llmOptimizerFactory({ injectOn: (injectOnFlag as InjectOn) ?? 'both' })
  } else if (kind === 'replay') {
    optimizerFactory = replayFactory(await readReplay(options.replay!))
  } else {
    if (!process.stdin.isTTY) throw new UsageError('--optimizer human needs a terminal to ask you at each pause')
    const prompter = ttyPrompter(process.stdin, process.stderr)
    closePrompter = () => prompter.close()
    optimizerFactory = humanOptimizerFactory(prompter)
  }

  const factory = await connect(targetUrl, requestTimeout, concurrency)
  checkClaimAgainstManifest(claimFile, factory.manifest, claimPath)
  const scopeNames = splitList(options.scope)
  const readOnlyNames = splitList(options['read-only'])
  const { scope, readOnly } = resolveScopes(factory.surfaces.domain, scopeNames, readOnlyNames, io.stderr)
  const out = options.out ?? './superred-results'
  const llmConfig: LLMConfig | null = kind === 'llm' ? { model: model!, apiBase: options['base-url'] ?? null, apiKey } : null
  const controller = new Controller({
    optimizerFactory, targetFactory: factory, securityClaim: claim, scope, readOnly,
    llmConfig, llmClientFactory: llmConfig ? clients : null,
    taskCostCapUsd: costCap ?? null, taskTimeCapS: timeCap ?? null, maxRunsPerTask: maxRuns ?? null,
    includeFeedback: !options['no-feedback'],
    storage: deps.storage ? deps.storage(out) : new NodeFsStorage(out), domain: factory.surfaces.domain,
    attackerLabel: options['attacker-label'] ?? null,
    targetLabel: options['target-label'] ?? factory.manifest.name,
    claimLabel: options['claim-label'] ?? null,
  })
  const total = claimFile.tasks.length
  io.stdout(`${controller.label}: ${total} task(s) against ${factory.manifest.name} (${factory.url}), scope [${scopeNames.join(', ')}]` +
    `${readOnlyNames.length ? `, read-only [${readOnlyNames.join(', ')}]` : ''}\n`)
  const cancel = new AbortController()
  // Every task waiting for a slot listens on this signal: past 10 queued tasks Node would print a
  // "possible memory leak" warning on stderr for what is only a long queue.
  setMaxListeners(0, cancel.signal)
  const onSigint = () => cancel.abort(new Error('interrupted'))
  process.once('SIGINT', onSigint)
  // A results file that could not be written (disk full, quota) is said at once and fails the command:
  // the engine goes on with the attack, but the tree on disk is not the whole story.
  const writeFailures: string[] = []
  const writes = {
    diagnostic: (_info: unknown, level: string, message: string, index?: number) => {
      if (level !== 'error' || !isResultsWriteFailure(message)) return
      writeFailures.push(message)
      io.stderr(`redscope run: ${index === undefined ? '' : `task ${index}: `}results not written: ${message}\n`)
    },
  }
  try {
    const result = await controller.run({ reporter: combineReporters(lineReporter(io.stdout, total, claimFile), writes), signal: cancel.signal })
    io.stdout(summaryLines({ ...result, resultsDir: result.resultsDir === null ? null : join(out, result.resultsDir) }))
  } catch (e) {
    if (!isStorageError(e)) throw e
    io.stderr(`redscope run: results could not be written under ${out}: ${(e as Error).message}\n`)
    return EXIT_FINDINGS
  } finally {
    process.off('SIGINT', onSigint)
    closePrompter()
  }
  if (writeFailures.length > 0) {
    io.stderr(`redscope run: the results under ${out} are incomplete: ${writeFailures.length} write(s) failed; free space and run the same command again to resume\n`)
    return EXIT_FINDINGS
  }
  return EXIT_OK
}
