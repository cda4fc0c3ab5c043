/**
 * `redscope run`: one threat model against a live HTTP target, written as a
 * superred results tree (plus redscope's extra files). The API key comes
 * from OPENAI_API_KEY only and the target token from REDSCOPE_TARGET_TOKEN:
 * neither is ever printed or written (superred persists `{model}` only).
 */
import { setMaxListeners } from 'node:events'
import { join } from 'node:path'
import { combineReporters, Controller, ENGINE_SEMANTICS, isResultsWriteFailure, type EngineSemantics } from '../../core/engine'
import { AttackerClashError, slugOf, type Storage } from '../../core/results'
import { splitList, type CommandArgs, type ParsedOptions } from '../command'
import type { RunOptions } from '../definitions/run'
import { EXIT_FINDINGS, EXIT_OK, UsageError, type CliIo } from '../io'
import { lineReporter, summaryLines } from '../runReporter'
import { attackerLlm, buildAttacker, chooseAttacker, readBudget } from '../attackerSetup'
import {
  capacityOptions,
  checkClaimAgainstManifest,
  claimFor,
  connectTarget,
  isStorageError,
  readClaim,
  resolveScopes,
  warnGoalEchoes,
} from '../runSetup'
import { claimFromFile } from '../../claims'
import { referencesByTag } from '../../core/tags'
import { forestFromManifest } from '../../protocol'
import { attackerLabelOf, attackerLine, refuseAttackerClash } from '../attackerLabel'
import { resultsStorage } from '../resultsStorage'

/** What the command builds that a test may replace (a storage that fills up). */
export interface RunDeps {
  readonly storage?: (out: string) => Storage
}

export async function runCommand({ options }: CommandArgs<RunOptions>, io: CliIo, deps: RunDeps = {}): Promise<number> {
  // Required: the parser has already refused a command line without it. Without --claim, the target's own.
  const targetUrl = options.target!
  const claimPath = options.claim
  const budget = readBudget(options)
  const { maxRuns, concurrency, costCap, timeCap, requestTimeout } = budget
  const choice = chooseAttacker(options, budget)
  // A claim file is read (and refused) before the target is asked anything.
  if (claimPath !== undefined) await readClaim(claimPath, { judge: choice.judge })
  const { semantics, resultsSchema } = readCompatibility(options, timeCap)
  const factory = await connectTarget(
    targetUrl,
    requestTimeout,
    concurrency,
    capacityOptions(budget.capacityWait, (line) => io.stderr(`redscope run: ${line}\n`)),
  )
  const { file: claimFile, where: claimWhere } = await claimFor(claimPath, factory.manifest, { judge: choice.judge })
  checkClaimAgainstManifest(claimFile, factory.manifest, claimWhere)
  warnGoalEchoes(claimFile, claimWhere, 'run', io.stderr)
  const countEchoes = options['count-echoes'] === true
  const claim = claimFromFile(claimFile, { judge: choice.judge }, claimWhere)
  const attacker = await buildAttacker(choice, options, semantics)
  const { optimizerFactory, close: closePrompter } = attacker
  const { llmConfig, llmClientFactory } = attackerLlm(choice, attacker)
  const scopeNames = splitList(options.scope)
  const readOnlyNames = splitList(options['read-only'])
  const { scope, readOnly } = resolveScopes(factory.surfaces.domain, scopeNames, readOnlyNames, io.stderr)
  const out = options.out ?? './superred-results'
  const storage = deps.storage ? deps.storage(out) : resultsStorage(out)
  const label = attackerLabelOf(attacker.config, options['attacker-label'])
  const controller = new Controller({
    optimizerFactory,
    targetFactory: factory,
    securityClaim: claim,
    scope,
    readOnly,
    llmConfig,
    llmClientFactory,
    taskCostCapUsd: costCap ?? null,
    taskTimeCapS: timeCap ?? null,
    maxRunsPerTask: maxRuns ?? null,
    includeFeedback: !options['no-feedback'],
    countEchoes,
    storage,
    domain: factory.surfaces.domain,
    domainReferences: referencesByTag(forestFromManifest(factory.manifest)),
    attackerLabel: label.label,
    attackerConfig: attacker.config,
    targetLabel: options['target-label'] ?? factory.manifest.name,
    claimLabel: options['claim-label'] ?? null,
    semantics,
    resultsSchema,
  })
  const total = claimFile.tasks.length
  // Another attacker's results in this folder are refused before anything is written or printed.
  await refuseAttackerClash(storage, out, label, {
    slug: slugOf(controller.meta(total)),
    config: attacker.config,
    belongs: (dir) => dir === controller.label,
  })
  io.stdout(
    `${controller.label}: ${total} task(s) against ${factory.manifest.name} (${factory.url}), scope [${scopeNames.join(', ')}]` +
      `${readOnlyNames.length ? `, read-only [${readOnlyNames.join(', ')}]` : ''}\n`,
  )
  io.stdout(attackerLine(label, attacker.config))
  const cancel = new AbortController()
  // Every task waiting for a slot listens on this signal: past 10 queued tasks Node would print a
  // "possible memory leak" warning on stderr for what is only a long queue.
  setMaxListeners(0, cancel.signal)
  const onSigint = () => cancel.abort(new Error('interrupted'))
  process.once('SIGINT', onSigint)
  // A run stopped by SIGTERM (a pod's or a service's stop) closes its sessions as Ctrl-C does: left open, they would
  // hold the target's capacity until its idle timeout, and a resume would wait on them.
  process.once('SIGTERM', onSigint)
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
    const result = await controller.run({
      reporter: combineReporters(lineReporter(io.stdout, total, claimFile, choice.unpricedModel), writes),
      signal: cancel.signal,
    })
    io.stdout(
      summaryLines(
        { ...result, resultsDir: result.resultsDir === null ? null : join(out, result.resultsDir) },
        controller.meta(null).attacker,
        countEchoes,
        choice.unpricedModel,
      ),
    )
  } catch (e) {
    // The engine's own check, for a folder written between the check above and the run (another process).
    if (e instanceof AttackerClashError) throw new UsageError(e.message)
    if (!isStorageError(e)) throw e
    io.stderr(`redscope run: results could not be written under ${out}: ${(e as Error).message}\n`)
    return EXIT_FINDINGS
  } finally {
    process.off('SIGINT', onSigint)
    process.off('SIGTERM', onSigint)
    closePrompter()
  }
  if (writeFailures.length > 0) {
    io.stderr(
      `redscope run: the results under ${out} are incomplete: ${writeFailures.length} write(s) failed; free space and run the same command again to resume\n`,
    )
    return EXIT_FINDINGS
  }
  return EXIT_OK
}

/** superred 0.3.0's behaviour and results schema, for comparing with the published package exactly. */
function readCompatibility(
  options: Pick<ParsedOptions<RunOptions>, 'semantics' | 'results-schema'>,
  timeCap: number | undefined,
): { semantics: EngineSemantics; resultsSchema: 4 | 5 | undefined } {
  const semantics = (options.semantics ?? 'redscope') as EngineSemantics
  if (!ENGINE_SEMANTICS.includes(semantics)) throw new UsageError(`--semantics ${semantics}: must be one of ${ENGINE_SEMANTICS.join(', ')}`)
  const schema = options['results-schema']
  if (schema !== undefined && schema !== '4' && schema !== '5') throw new UsageError(`--results-schema ${schema}: must be 4 or 5`)
  if (timeCap !== undefined && semantics === 'superred-0.3.0') {
    throw new UsageError('--time-cap: superred 0.3.0 has no task time cap (leave it out with --semantics superred-0.3.0)')
  }
  return { semantics, resultsSchema: schema === undefined ? undefined : (Number(schema) as 4 | 5) }
}
