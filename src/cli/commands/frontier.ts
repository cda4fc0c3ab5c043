/**
 * `redscope frontier`: the weakest attackers that win, found by the frontier
 * search (src/core/frontier) with the real Controller as its oracle. Each
 * evaluated threat model is one superred results tree under --out (repeats
 * N ≥ 2 under --out/repeat-N), and frontier.json is rewritten after every
 * evaluation, so a stopped search resumes: its evaluations are knowledge,
 * and a finished experiment is read back instead of rerun.
 */
import { setMaxListeners } from 'node:events'
import { resultsStorage } from '../heldSecrets'
import { claimFromFile } from '../../claims'
import { combineReporters, Controller, isResultsWriteFailure } from '../../core/engine'
import {
  completeCounts, FRONTIER_FILE, FrontierFileSchema, FrontierSession, SCAN_LIMIT, shardTasks, frontierFile, knownEvaluations, tallyOf, verdictOf,
  type FrontierSearchJson, type Observation, type Seed,
} from '../../core/frontier'
import { describeModel, GrantLattice, ThreatModelLattice, type Cover, type NamedModel, type SearchSpace } from '../../core/lattice'
import { experimentDirName, ManifestFile, readOptional } from '../../core/results'
import { joinPath, type Storage } from '../../core/results/storage'
import { digestOf, isSettled } from '../../core/sweep'
import { rateWords } from '../../core/stats'
import { HttpTargetFactory } from '../../protocol'
import { buildAttacker, chooseAttacker, readBudget } from '../attackerSetup'
import type { CommandArgs } from '../command'
import type { FrontierOptions } from '../definitions/frontier'
import { EXIT_FINDINGS, EXIT_OK, UsageError, type CliIo } from '../io'
import { chooseShard } from '../sweepSelection'
import { capacityOptions, checkClaimAgainstManifest, claimFor, connectTarget, isStorageError, numberFlag, readClaim, resolveScopes } from '../runSetup'

const fmt = (n: number | bigint) => n.toLocaleString('en-US')
/** Beyond this many threat models, counting what is decided is a scan per question: done once, at the end. */
const COUNT_EVERY_STEP_UP_TO = 100_000n

class Stopped extends Error {}

export async function frontierCommand({ options }: CommandArgs<FrontierOptions>, io: CliIo): Promise<number> {
  const budget = readBudget(options)
  const repeat = numberFlag('repeat', options.repeat, (n) => Number.isInteger(n) && n >= 1, 'an integer of at least 1') ?? 1
  const budgetRuns = numberFlag('budget-runs', options['budget-runs'], (n) => Number.isInteger(n) && n >= 1, 'an integer of at least 1')
  const seed = (options.seed ?? 'low') as Seed
  if (seed !== 'low' && seed !== 'high') throw new UsageError(`--seed ${String(options.seed)}: must be low or high`)
  const perTask = options['per-task'] === true
  const readOnlyGrants = options['read-only'] === true
  const shard = chooseShard({ shard: options.shard, shardFromEnv: options['shard-from-env'], shards: options.shards }, process.env)
  if (shard.count > 1 && !perTask) {
    throw new UsageError(`--shard ${shard.index}/${shard.count}: a frontier search shards by task, so it needs --per-task (the claim's own search is sequential)`)
  }
  const choice = chooseAttacker(options, budget, ['template', 'llm', 'replay'])
  const claimPath = options.claim
  if (claimPath !== undefined) await readClaim(claimPath, { judge: choice.judge })
  const attacker = await buildAttacker(choice, options)
  const capacity = capacityOptions(budget.capacityWait, (line) => io.stderr(`redscope frontier: ${line}\n`))
  const probe = await connectTarget(options.target!, budget.requestTimeout, undefined, capacity)
  const manifest = probe.manifest
  // Without --claim, the claim the target serves itself (as run and sweep do).
  const { file: claimFile, where: claimWhere } = await claimFor(claimPath, manifest, { judge: choice.judge })
  checkClaimAgainstManifest(claimFile, manifest, claimWhere)
  const sessions = Math.min(budget.concurrency ?? manifest.concurrency, manifest.concurrency)
  const factory = new HttpTargetFactory(probe.client, manifest, { ...capacity, maxConcurrency: sessions })
  // superred matches tags by identity: the lattice is built on the factory's own tag objects.
  const domain = factory.surfaces.domain
  const scopeOnly = new ThreatModelLattice(domain)
  const lattice: SearchSpace = readOnlyGrants ? new GrantLattice(scopeOnly) : scopeOnly
  const goals = claimFile.tasks.map((t) => t.goal)
  const sharded = shard.count > 1
  const myTasks = sharded ? shardTasks(goals.length, shard.index, shard.count) : null
  const shardJson = myTasks === null ? null : { index: shard.index, count: shard.count, tasks: myTasks.map((i) => i + 1) }

  const labels = {
    attacker: options['attacker-label'] ?? choice.kind,
    target: options['target-label'] ?? manifest.name,
    claim: options['claim-label'] ?? claimFile.name,
  }
  const out = options.out ?? './superred-frontier'
  const storages = Array.from({ length: repeat }, (_, r) => resultsStorage(r === 0 ? out : `${out}/repeat-${r + 1}`))
  const root = storages[0]
  const search: FrontierSearchJson = {
    target: labels.target, claim: labels.claim, attacker: labels.attacker,
    claim_digest: digestOf({ claim: claimFile, judge: choice.judge ? options['judge-model'] ?? choice.model ?? null : null }),
    attacker_digest: digestOf({ kind: choice.kind, options: attacker.options, maxRuns: budget.maxRuns ?? null }),
    seed, repeat, per_task: perTask, budget_runs: budgetRuns ?? null, read_only: readOnlyGrants,
  }
  let known
  try {
    const saved = await readOptional(root, FRONTIER_FILE, FrontierFileSchema)
    if (saved !== null) {
      const was = saved.search
      const same = (['target', 'claim', 'attacker', 'claim_digest', 'attacker_digest', 'repeat', 'read_only'] as const).every((k) => was[k] === search[k]) &&
        (saved.shard?.index ?? null) === (shardJson?.index ?? null) && (saved.shard?.count ?? null) === (shardJson?.count ?? null)
      if (!same) {
        throw new UsageError(`--out ${out} already holds another frontier search (${was.claim} against ${was.target} by ${was.attacker}, ` +
          `repeat ${was.repeat}${was.read_only ? ', read-only grants' : ''}${saved.shard ? `, shard ${saved.shard.index}/${saved.shard.count}` : ''}): give this search its own folder`)
      }
      known = knownEvaluations(lattice, saved)
    }
  } catch (e) {
    if (e instanceof UsageError) throw e
    if (e instanceof RangeError) throw new UsageError(`${out}/${FRONTIER_FILE}: ${e.message}: give this search its own folder`)
    throw new UsageError(`${out}/${FRONTIER_FILE}: cannot be read (${(e as Error).message})`)
  }

  const notes = new Set<string>()
  const controllerFor = (scopeNames: readonly string[], readOnlyNames: readonly string[], storage: Storage) => {
    // "X is writable inside the read-only Y" is what a read-only search asks for on purpose: not worth a line per run.
    const { scope, readOnly } = resolveScopes(domain, [...scopeNames], [...readOnlyNames], (line) => {
      if (!line.startsWith('note: info:')) notes.add(line)
    })
    return new Controller({
      optimizerFactory: attacker.optimizerFactory, targetFactory: factory, securityClaim: claimFromFile(claimFile, { judge: choice.judge }, claimWhere),
      scope, readOnly, llmConfig: choice.llmConfig, llmClientFactory: choice.llmConfig ? choice.clients : null,
      taskCostCapUsd: budget.costCap ?? null, taskTimeCapS: budget.timeCap ?? null, maxRunsPerTask: budget.maxRuns ?? null,
      includeFeedback: !options['no-feedback'], storage, domain,
      attackerLabel: labels.attacker, targetLabel: labels.target, claimLabel: labels.claim,
    })
  }
  const base = controllerFor(domain.roots.map((t) => t.name), [], root).meta(goals.length)
  const dirOf = (m: NamedModel) => experimentDirName({ ...base, scope: [...m.scope], readOnly: [...m.readOnly] })
  const runsOf = (m: NamedModel) => storages.map((_, r) => (r === 0 ? '' : `repeat-${r + 1}/`) + dirOf(m))

  const cancel = new AbortController()
  setMaxListeners(0, cancel.signal)
  const stop = () => cancel.abort(new Error('interrupted'))
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  const writeFailures: string[] = []
  const reporter = combineReporters({
    diagnostic: (info: { key: string } | null, level: string, message: string) => {
      if (level !== 'error' || !isResultsWriteFailure(message)) return
      writeFailures.push(message)
      io.stderr(`redscope frontier: ${info?.key ?? ''}: results not written: ${message}\n`)
    },
  })
  let taskErrors = 0

  /** One evaluation: the claim `repeat` times on this threat model, a finished experiment read back instead of rerun. */
  const evaluate = async (cover: Cover): Promise<Observation> => {
    const model = lattice.modelOf(cover)
    const runs: boolean[][] = []
    for (const storage of storages) {
      const dir = dirOf(model)
      if (await isSettled(storage, dir, goals)) {
        const m = (await readOptional(storage, joinPath(dir, 'manifest.json'), ManifestFile))!
        taskErrors += m.tasks.filter((t) => t.status === 'error').length
        runs.push(goals.map((_, i) => m.tasks.find((t) => t.index === i + 1)?.success === true))
        continue
      }
      const result = await controllerFor(model.scope, model.readOnly, storage).run({ reporter, signal: cancel.signal })
      for (const n of notes) io.stderr(n)
      notes.clear()
      if (result.cancelled) throw new Stopped()
      taskErrors += result.taskResults.filter((t) => t.stopReason === 'error').length
      runs.push(goals.map((_, i) => result.taskResults.find((t) => t.index === i + 1)?.success === true))
    }
    return { runs }
  }

  const small = lattice.total <= COUNT_EVERY_STEP_UP_TO
  const questions = myTasks ?? undefined
  const session = new FrontierSession(lattice, { taskCount: goals.length, perTask, questions, seed, repeat, budgetRuns, known, counts: small })
  const save = async (final: boolean, stopped = false) => {
    const live = session.answer(stopped)
    // A re-made session has not walked: completeness is the live one's. Beyond SCAN_LIMIT a complete answer's counts are derived.
    const answer = !final || small ? live
      : lattice.total > SCAN_LIMIT ? (live.complete ? completeCounts(live, lattice.total) : live)
        : new FrontierSession(lattice, { taskCount: goals.length, perTask, questions, seed, known: session.evaluations, counts: true }).answer(stopped)
    const file = frontierFile(lattice, { ...answer, complete: live.complete }, search, goals, runsOf, shardJson)
    await root.writeTextAtomic(FRONTIER_FILE, `${JSON.stringify(file, null, 2)}\n`)
    return file
  }

  const resumed = session.evaluations.length
  io.stdout(`frontier of ${claimFile.name} against ${manifest.name} (${probe.url}): ${fmt(lattice.total)} threat models, ` +
    `${goals.length} task(s) each${perTask ? ', per task' : ''}${shardJson ? ` (shard ${shard.index}/${shard.count}: task(s) ${shardJson.tasks.join(', ') || 'none'})` : ''}, ${repeat} run(s) per evaluation, seeding ${seed}` +
    `${resumed > 0 ? `; resuming with ${fmt(resumed)} evaluation(s) from ${FRONTIER_FILE}` : ''}; results in ${out}\n`)
  let stopped = false
  let file
  try {
    for (let c = session.next(); c !== null; c = session.next()) {
      let observation
      try {
        observation = await evaluate(c)
      } catch (e) {
        if (e instanceof Stopped) {
          stopped = true
          break
        }
        throw e
      }
      const q = session.question
      session.submit(observation)
      const m = lattice.modelOf(c)
      const t = tallyOf(observation, q)
      const counts = small ? session.counts() : null
      io.stdout(`[${fmt(session.evaluations.length)}] ${q === 'claim' ? 'claim' : `task ${q + 1}`}: #${lattice.label(c)} [${m.scope.join(', ')}]${m.readOnly.length > 0 ? ` read only [${m.readOnly.join(', ')}]` : ''} ` +
        `${verdictOf(t) === 'win' ? 'wins' : 'loses'}: ${rateWords(t.wins, t.runs, { unit: 'run', attacker: labels.attacker }).text}` +
        `${counts ? `; decided by inference ${fmt(counts.inferred)}, undecided ${fmt(counts.undecided)}` : ''}\n`)
      await save(false)
    }
    file = await save(true, stopped)
  } catch (e) {
    if (!isStorageError(e)) throw e
    io.stderr(`redscope frontier: results could not be written under ${out}: ${(e as Error).message}\n`)
    return EXIT_FINDINGS
  } finally {
    process.off('SIGINT', stop)
    process.off('SIGTERM', stop)
    attacker.close()
  }

  const pct = (a: number) => `${((100 * a) / file.threat_models_total).toFixed(1)}%`
  io.stdout(`evaluated ${fmt(file.evaluated)} of ${fmt(file.threat_models_total)} threat models (${pct(file.evaluated)})` +
    `${file.claim.decided_by_inference === null ? '' : `, ${fmt(file.claim.decided_by_inference)} decided by inference`}` +
    `${file.complete ? '' : `, ${file.claim.undecided === null ? 'some' : fmt(file.claim.undecided)} undecided`}\n`)
  io.stdout(shardJson ? `shard ${shard.index}/${shard.count}: the claim's frontier comes from every task's: \`redscope merge\` the shards\n`
    : file.claim.minimal_wins.length === 0 ? `no threat model broke the claim in the runs made (${repeat} per evaluation): even the widest attacker lost\n`
    : `the weakest attackers that break the claim (${file.claim.minimal_wins.length}):\n` +
      file.claim.minimal_wins.map((m) => `  #${m.index} ${describeModel({ scope: m.scope, readOnly: m.read_only })} wins\n`).join(''))
  for (const t of file.tasks) {
    io.stdout(`task ${t.index}: ${t.minimal_wins.length === 0 ? `not broken by any threat model run (${repeat} run(s) each)` : t.minimal_wins.map((m) => `[${m.scope.join(', ')}]${m.read_only.length > 0 ? ` read only [${m.read_only.join(', ')}]` : ''}`).join(' or ')}\n`)
  }
  const problems: string[] = []
  if (file.contradictions.length > 0) problems.push(`${fmt(file.contradictions.length)} contradiction(s): a wider threat model lost where a narrower one won (see ${FRONTIER_FILE})`)
  if (!file.complete) problems.push(stopped ? 'stopped before the frontiers were complete: run the same command again to resume' : 'the run budget ran out before the frontiers were complete')
  if (taskErrors > 0) problems.push(`${fmt(taskErrors)} task(s) ended in error (counted as not broken)`)
  if (writeFailures.length > 0) problems.push(`${fmt(writeFailures.length)} results write(s) failed`)
  if (problems.length > 0) {
    io.stderr(`redscope frontier: ${problems.join('; ')}\n`)
    return EXIT_FINDINGS
  }
  return EXIT_OK
}
