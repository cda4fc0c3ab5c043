/**
 * `redscope sweep`: many threat models (or one shard of them) against a live
 * target, each a superred results tree under --out, plus sweep.json. The
 * engine does the work (src/core/sweep: selection, shard, runSweep); this
 * file turns flags into its inputs and its progress into lines.
 */
import { setMaxListeners } from 'node:events'
import { resultsStorage } from '../resultsStorage'
import { claimFromFile } from '../../claims'
import { mergeTagReferences } from '../../core/compliance'
import { referencesByTag } from '../../core/tags'
import { combineReporters, Controller, DEFAULT_MAX_RUNS_PER_TASK, isResultsWriteFailure } from '../../core/engine'
import { experimentDirName, slugOf } from '../../core/results'
import {
  claimSweepFile,
  digestOf,
  runSweep,
  shardItems,
  shardRecord,
  shardText,
  SweepMismatchError,
  type SelectedModel,
  type SweepDefinition,
} from '../../core/sweep'
import { asrText, rateWords } from '../../core/stats'
import { forestFromManifest, HttpTargetFactory } from '../../protocol'
import { attackerLlm, buildAttacker, chooseAttacker, readBudget } from '../attackerSetup'
import { attackerLabelOf, attackerLine, refuseAttackerClash } from '../attackerLabel'
import { splitList, type CommandArgs } from '../command'
import { gateAfterRun, parseGateFlags, targetLocation } from '../gate'
import { DEFAULT_PARALLEL, type SweepOptions } from '../definitions/sweep'
import { readForestFile } from '../forestFile'
import { EXIT_FINDINGS, EXIT_OK, UsageError, type CliIo } from '../io'
import {
  capacityOptions,
  checkClaimAgainstManifest,
  claimFor,
  connectTarget,
  isStorageError,
  numberFlag,
  readClaim,
  resolveScopes,
  warnGoalEchoes,
} from '../runSetup'
import { chooseSelection, chooseShard } from '../sweepSelection'

const fmt = (n: number | bigint) => n.toLocaleString('en-US')
/** A rate in the words every view uses: its n (completed tasks) and 95% interval, or "not broken in N tasks by <attacker>". */
const asrOf = (success: number, completed: number, attacker: string) => asrText(rateWords(success, completed, { unit: 'task', attacker }))

/** The sweep, then the gate (--fail-on, --junit, --sarif) over the results under --out: see ../gate.ts. */
export async function sweepCommand(args: CommandArgs<SweepOptions>, io: CliIo): Promise<number> {
  const rules = parseGateFlags(args.options, false)
  const code = await sweepOnly(args, io)
  return gateAfterRun(args.options, rules, args.options.out ?? './superred-results', targetLocation(args.options.target![0]), code, io)
}

async function sweepOnly({ options }: CommandArgs<SweepOptions>, io: CliIo): Promise<number> {
  const shard = chooseShard({ shard: options.shard, shardFromEnv: options['shard-from-env'], shards: options.shards }, process.env)
  const budget = readBudget(options)
  const parallel =
    numberFlag('parallel', options.parallel, (n) => Number.isInteger(n) && n >= 1, 'an integer of at least 1') ?? DEFAULT_PARALLEL
  const choice = chooseAttacker(options, budget, ['template', 'llm', 'replay', 'served'])
  const claimPath = options.claim
  if (claimPath !== undefined) await readClaim(claimPath, { judge: choice.judge })
  const attacker = await buildAttacker(choice, options)
  const forestFile = options.forest === undefined ? null : await readForestFile(options.forest)

  // Replicas of one target: this shard's sessions all go to one of them.
  const targets = options.target!
  const targetUrl = targets[shard.index % targets.length]
  const capacity = capacityOptions(budget.capacityWait, (line) => io.stderr(`redscope sweep: ${line}\n`))
  const probe = await connectTarget(targetUrl, budget.requestTimeout, undefined, capacity)
  const manifest = probe.manifest
  // Without --claim, the claim the target serves itself.
  const { file: claimFile, where: claimWhere } = await claimFor(claimPath, manifest, { judge: choice.judge })
  checkClaimAgainstManifest(claimFile, manifest, claimWhere)
  warnGoalEchoes(claimFile, claimWhere, 'sweep', io.stderr)
  const countEchoes = options['count-echoes'] === true
  // The run console's split: the models at once share the target's sessions, so none waits on 503s.
  const sessions = Math.min(budget.concurrency ?? manifest.concurrency, manifest.concurrency)
  const share = Math.max(1, Math.floor(sessions / parallel))
  const factory = new HttpTargetFactory(probe.client, manifest, { ...capacity, maxConcurrency: share })
  // Scopes must name this factory's own tag objects: superred matches tags by identity, not by name.
  const targetDomain = factory.surfaces.domain
  if (forestFile) {
    const foreign = forestFile.domain.tags.find((t) => !targetDomain.has(t.name))
    if (foreign)
      throw new UsageError(
        `--forest ${options.forest}: '${foreign.name}' is not a tag of ${manifest.name} (its tags: ${targetDomain.tags.map((t) => t.name).join(', ')})`,
      )
  }
  const domain = forestFile?.domain ?? targetDomain
  const { selection, spec } = await chooseSelection(
    {
      all: options.all,
      containing: splitList(options.containing),
      indices: options.indices,
      threatModels: options['threat-models'],
    },
    domain,
  )

  const attackerLabel = attackerLabelOf(attacker.config, options['attacker-label'])
  const labels = {
    attacker: attackerLabel.label,
    target: options['target-label'] ?? manifest.name,
    claim: options['claim-label'] ?? claimFile.name,
  }
  const out = options.out ?? './superred-results'
  const storage = resultsStorage(out)
  const notes = new Set<string>()
  const controllerFor = (m: SelectedModel) => {
    const { scope, readOnly } = resolveScopes(targetDomain, [...m.scope], [...m.readOnly], (line) => notes.add(line))
    return new Controller({
      optimizerFactory: attacker.optimizerFactory,
      targetFactory: factory,
      securityClaim: claimFromFile(claimFile, { judge: choice.judge }, claimWhere),
      scope,
      readOnly,
      ...attackerLlm(choice, attacker),
      taskCostCapUsd: budget.costCap ?? null,
      taskTimeCapS: budget.timeCap ?? null,
      maxRunsPerTask: budget.maxRuns ?? null,
      includeFeedback: !options['no-feedback'],
      countEchoes,
      storage,
      domain: targetDomain,
      domainReferences: mergeTagReferences(
        referencesByTag(forestFromManifest(manifest)),
        forestFile ? referencesByTag(forestFile.forest) : new Map(),
      ),
      attackerLabel: labels.attacker,
      attackerConfig: attacker.config,
      targetLabel: labels.target,
      claimLabel: labels.claim,
      threatModelName: m.name ?? null,
    })
  }
  // Every model's folder, named before anything runs (sweep.json lists them): the first Controller's identity with each scope.
  const base = controllerFor(selection.at(0n)).meta(claimFile.tasks.length)
  const dirOf = (m: SelectedModel) => experimentDirName({ ...base, scope: m.scope, readOnly: m.readOnly })

  const def: SweepDefinition = {
    ...labels,
    forest: forestFile?.forest ?? forestFromManifest(manifest),
    selection: spec,
    settings: {
      model: choice.llmConfig?.model ?? null,
      maxRunsPerTask: budget.maxRuns ?? DEFAULT_MAX_RUNS_PER_TASK,
      taskCostCapUsd: budget.costCap ?? null,
      taskTimeCapS: budget.timeCap ?? null,
      includeFeedback: !options['no-feedback'],
    },
    // How the claim is judged: its file, its judge, and (only when set, so earlier sweeps keep their digest) echoes counted.
    claimDigest: digestOf({
      claim: claimFile,
      judge: choice.judge ? (options['judge-model'] ?? choice.model ?? null) : null,
      ...(countEchoes ? { countEchoes } : {}),
    }),
    attackerDigest: digestOf(attacker.config),
  }
  const planned = shardRecord(def, selection, shard, dirOf, Date.now())
  // A named label is checked against the folders this shard would resume (a derived one differs with its configuration).
  if (attackerLabel.forced !== null) {
    const dirs = new Set(planned.models.map((m) => m.dir))
    await refuseAttackerClash(storage, out, attackerLabel, { slug: slugOf(base), config: attacker.config, belongs: (dir) => dirs.has(dir) })
  }
  let record
  try {
    record = await claimSweepFile(storage, planned, out)
  } catch (e) {
    if (e instanceof SweepMismatchError) throw new UsageError(e.message)
    if (isStorageError(e)) throw new UsageError(`--out ${out}: cannot write there (${(e as Error).message})`)
    throw e
  }
  const mine = shardItems(selection, shard)
  const of = shard.count > 1 ? `shard ${shardText(shard)}: ${fmt(mine.count)} of ${fmt(selection.count)}` : fmt(selection.count)
  io.stdout(
    `${record.id}: ${of} threat models, ${claimFile.tasks.length} task(s) each, against ${manifest.name} (${probe.url}); ` +
      `${parallel} at once, ${factory.concurrency} session(s) each; results in ${out}\n`,
  )
  io.stdout(attackerLine(attackerLabel, attacker.config))

  const cancel = new AbortController()
  // Every task waiting for a slot listens on this signal: a long queue, not a leak.
  setMaxListeners(0, cancel.signal)
  const stop = () => cancel.abort(new Error('interrupted'))
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  const writeFailures: string[] = []
  const writes = {
    diagnostic: (info: { key: string } | null, level: string, message: string, index?: number) => {
      if (level !== 'error' || !isResultsWriteFailure(message)) return
      writeFailures.push(message)
      io.stderr(`redscope sweep: ${info?.key ?? ''}${index === undefined ? '' : ` task ${index}`}: results not written: ${message}\n`)
    },
  }
  const width = fmt(mine.count).length
  let done = 0
  let summary
  try {
    summary = await runSweep({
      storage,
      models: mine,
      dirOf,
      controllerFor,
      goals: claimFile.tasks.map((t) => t.goal),
      parallel,
      reporter: combineReporters(writes),
      signal: cancel.signal,
      progress: {
        modelEnd: (m, _dir, o) => {
          for (const n of notes) io.stderr(n)
          notes.clear()
          if (o.kind === 'cancelled') return
          done += 1
          const name = m.index === null ? `#${m.rank}` : `#${m.index}`
          const what = `[${m.scope.join(', ')}]${m.readOnly.length ? ` read-only [${m.readOnly.join(', ')}]` : ''}`
          const outcome = o.kind === 'kept' ? 'kept (finished before)' : asrOf(o.nSuccess, o.nCompleted, labels.attacker)
          io.stdout(
            `[${fmt(done).padStart(width)}/${fmt(mine.count)}] ${name} ${what}: ${outcome}${o.nError ? `, ${o.nError} in error` : ''}\n`,
          )
        },
      },
    })
  } catch (e) {
    if (!isStorageError(e)) throw e
    io.stderr(`redscope sweep: results could not be written under ${out}: ${(e as Error).message}\n`)
    return EXIT_FINDINGS
  } finally {
    process.off('SIGINT', stop)
    process.off('SIGTERM', stop)
    attacker.close()
  }
  if (summary.indexRepaired.length > 0) {
    io.stdout(`experiments.json lacked ${fmt(summary.indexRepaired.length)} finished experiment(s): their rows added from their folders\n`)
  }
  const t = summary.tasks
  io.stdout(
    `${fmt(summary.models - summary.unfinished)} of ${fmt(summary.models)} threat models done (${fmt(summary.ran)} run now, ${fmt(summary.kept)} kept); ` +
      `${fmt(summary.brokeClaim)} broke the claim; ${asrOf(t.success, t.completed, labels.attacker)}, the tasks of every threat model pooled\n`,
  )
  const problems: string[] = []
  if (summary.unfinished > 0) problems.push(`stopped with ${fmt(summary.unfinished)} threat model(s) unfinished`)
  if (t.error > 0) problems.push(`${fmt(t.error)} task(s) ended in error`)
  if (writeFailures.length > 0) problems.push(`${fmt(writeFailures.length)} results write(s) failed`)
  if (problems.length > 0) {
    io.stderr(`redscope sweep: ${problems.join('; ')}: run the same command again to resume (finished tasks are kept)\n`)
    return EXIT_FINDINGS
  }
  return EXIT_OK
}
