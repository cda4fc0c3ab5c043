/**
 * `redscope frontier`: the weakest attackers that win, found by the frontier
 * search (src/core/frontier) with the real Controller as its oracle. Each
 * evaluated threat model is one superred results tree under --out (repeats
 * N ≥ 2 under --out/repeat-N), and frontier.json is rewritten after every
 * evaluation, so a stopped search resumes: its evaluations are knowledge,
 * and a finished experiment is read back instead of rerun. With
 * --confidence, each evaluation is a sequential test (src/core/frontier/
 * sequential.ts): batches of runs, concurrent up to the target's capacity,
 * run k under --out/repeat-k as with --repeat.
 */
import { setMaxListeners } from 'node:events'
import { resultsStorage } from '../resultsStorage'
import { claimFromFile } from '../../claims'
import { combineReporters, Controller, isResultsWriteFailure } from '../../core/engine'
import {
  answerWords,
  type AnswerPoint,
  completeCounts,
  DEFAULT_THRESHOLD,
  FRONTIER_FILE,
  FrontierFileSchema,
  FrontierSession,
  MAX_REPEATS,
  outcomesOf,
  SCAN_LIMIT,
  sequenceInterval,
  shardTasks,
  frontierFile,
  knownEvaluations,
  tallyOf,
  testProblem,
  verdictOf,
  type FrontierFile,
  type FrontierSearchJson,
  type Observation,
  type Seed,
  type SequentialTest,
} from '../../core/frontier'
import { GrantLattice, ThreatModelLattice, type Cover, type NamedModel, type SearchSpace } from '../../core/lattice'
import { experimentDirName, ManifestFile, readOptional, slugOf } from '../../core/results'
import { joinPath, type Storage } from '../../core/results/storage'
import { digestOf, isSettled } from '../../core/sweep'
import { rateWords } from '../../core/stats'
import { HttpTargetFactory } from '../../protocol'
import { attackerLlm, buildAttacker, chooseAttacker, readBudget } from '../attackerSetup'
import { attackerLabelOf, attackerLine, refuseAttackerClash } from '../attackerLabel'
import type { CommandArgs } from '../command'
import { gateAfterRun, parseGateFlags, targetLocation } from '../gate'
import type { FrontierOptions } from '../definitions/frontier'
import { EXIT_FINDINGS, EXIT_OK, UsageError, type CliIo } from '../io'
import { chooseShard } from '../sweepSelection'
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

const fmt = (n: number | bigint) => n.toLocaleString('en-US')
/** Beyond this many threat models, counting what is decided is a scan per question: done once, at the end. */
const COUNT_EVERY_STEP_UP_TO = 100_000n

class Stopped extends Error {}

/** --confidence, --threshold, --max-repeats: the sequential test, or undefined without --confidence. */
function readTest(options: CommandArgs<FrontierOptions>['options']): SequentialTest | undefined {
  const confidence = numberFlag('confidence', options.confidence, (n) => n > 0 && n < 1, 'a probability above 0 and below 1, e.g. 0.95')
  const threshold = numberFlag('threshold', options.threshold, (n) => n > 0 && n < 1, 'a success rate above 0 and below 1, e.g. 0.5')
  const maxRepeats = numberFlag(
    'max-repeats',
    options['max-repeats'],
    (n) => Number.isInteger(n) && n >= 1 && n <= MAX_REPEATS,
    `an integer from 1 to ${MAX_REPEATS.toLocaleString('en-US')}`,
  )
  if (confidence === undefined) {
    const stray = threshold !== undefined ? 'threshold' : maxRepeats !== undefined ? 'max-repeats' : null
    if (stray !== null) throw new UsageError(`--${stray} belongs to the sequential test: give --confidence C too (e.g. --confidence 0.95)`)
    return undefined
  }
  if (options.repeat !== undefined) {
    throw new UsageError(
      '--repeat and --confidence: a test decides how many runs each threat model needs; give --max-repeats N for its limit instead',
    )
  }
  const test = { confidence, threshold: threshold ?? DEFAULT_THRESHOLD, maxRepeats: maxRepeats ?? DEFAULT_MAX_REPEATS }
  const problem = testProblem(test)
  if (problem !== null) throw new UsageError(problem)
  return test
}

/** Runs per threat model at most when --confidence comes without --max-repeats. */
const DEFAULT_MAX_REPEATS = 100

const pctOf = (x: number) => `${(100 * x).toFixed(1)}%`
/** Two decimals, rounded outwards: a printed interval never claims more than the sequence does. */
const bounds = (low: number, high: number) => `[${(Math.floor(low * 100) / 100).toFixed(2)}, ${(Math.ceil(high * 100) / 100).toFixed(2)}]`
const interval = (outcomes: readonly boolean[], test: SequentialTest) => {
  const i = sequenceInterval(outcomes, test.confidence)
  return bounds(i.low, i.high)
}

/** The frontier, then the gate (--fail-on, --junit, --sarif) over the results under --out: see ../gate.ts. */
export async function frontierCommand(args: CommandArgs<FrontierOptions>, io: CliIo): Promise<number> {
  const rules = parseGateFlags(args.options, false)
  const code = await frontierOnly(args, io)
  return gateAfterRun(args.options, rules, args.options.out ?? './superred-frontier', targetLocation(args.options.target!), code, io)
}

async function frontierOnly({ options }: CommandArgs<FrontierOptions>, io: CliIo): Promise<number> {
  const budget = readBudget(options)
  const test = readTest(options)
  const repeat =
    test?.maxRepeats ?? numberFlag('repeat', options.repeat, (n) => Number.isInteger(n) && n >= 1, 'an integer of at least 1') ?? 1
  const budgetRuns = numberFlag('budget-runs', options['budget-runs'], (n) => Number.isInteger(n) && n >= 1, 'an integer of at least 1')
  const seed = (options.seed ?? 'low') as Seed
  if (seed !== 'low' && seed !== 'high') throw new UsageError(`--seed ${String(options.seed)}: must be low or high`)
  const perTask = options['per-task'] === true
  const readOnlyGrants = options['read-only'] === true
  const shard = chooseShard({ shard: options.shard, shardFromEnv: options['shard-from-env'], shards: options.shards }, process.env)
  if (shard.count > 1 && !perTask) {
    throw new UsageError(
      `--shard ${shard.index}/${shard.count}: a frontier search shards by task, so it needs --per-task (the claim's own search is sequential)`,
    )
  }
  const choice = chooseAttacker(options, budget, ['template', 'llm', 'replay', 'served'])
  const claimPath = options.claim
  if (claimPath !== undefined) await readClaim(claimPath, { judge: choice.judge })
  const attacker = await buildAttacker(choice, options)
  const capacity = capacityOptions(budget.capacityWait, (line) => io.stderr(`redscope frontier: ${line}\n`))
  const probe = await connectTarget(options.target!, budget.requestTimeout, undefined, capacity)
  const manifest = probe.manifest
  // Without --claim, the claim the target serves itself (as run and sweep do).
  const { file: claimFile, where: claimWhere } = await claimFor(claimPath, manifest, { judge: choice.judge })
  checkClaimAgainstManifest(claimFile, manifest, claimWhere)
  warnGoalEchoes(claimFile, claimWhere, 'frontier', io.stderr)
  const countEchoes = options['count-echoes'] === true
  const sessions = Math.min(budget.concurrency ?? manifest.concurrency, manifest.concurrency)
  // With a test, repeats run side by side: as many runs of the claim at once as the target's sessions allow, each
  // with its share (a run opens a session per task it runs at once). Without one, one run at a time, as ever.
  const atOnce = test === undefined ? 1 : Math.max(1, Math.floor(sessions / Math.min(claimFile.tasks.length, sessions)))
  const factory = new HttpTargetFactory(probe.client, manifest, { ...capacity, maxConcurrency: Math.max(1, Math.floor(sessions / atOnce)) })
  // superred matches tags by identity: the lattice is built on the factory's own tag objects.
  const domain = factory.surfaces.domain
  const scopeOnly = new ThreatModelLattice(domain)
  const lattice: SearchSpace = readOnlyGrants ? new GrantLattice(scopeOnly) : scopeOnly
  const goals = claimFile.tasks.map((t) => t.goal)
  const sharded = shard.count > 1
  const myTasks = sharded ? shardTasks(goals.length, shard.index, shard.count) : null
  const shardJson = myTasks === null ? null : { index: shard.index, count: shard.count, tasks: myTasks.map((i) => i + 1) }

  const attackerLabel = attackerLabelOf(attacker.config, options['attacker-label'])
  const labels = {
    attacker: attackerLabel.label,
    target: options['target-label'] ?? manifest.name,
    claim: options['claim-label'] ?? claimFile.name,
  }
  const out = options.out ?? './superred-frontier'
  // With a test, shard I numbers its repeats from I × max repeats + 1: two shards' runs of one threat model are
  // different draws, kept apart so that `redscope merge` pools them instead of finding them in conflict.
  const firstRepeat = test !== undefined && shardJson !== null ? shard.index * repeat : 0
  const treeOf = (r: number) => (firstRepeat + r === 0 ? '' : `repeat-${firstRepeat + r + 1}`)
  const storages = Array.from({ length: repeat }, (_, r) => resultsStorage(treeOf(r) === '' ? out : `${out}/${treeOf(r)}`))
  const root = treeOf(0) === '' ? storages[0] : resultsStorage(out)
  const search: FrontierSearchJson = {
    target: labels.target,
    claim: labels.claim,
    attacker: labels.attacker,
    // How the claim is judged: its file, its judge, and (only when set, so earlier searches keep their digest) echoes counted.
    claim_digest: digestOf({
      claim: claimFile,
      judge: choice.judge ? (options['judge-model'] ?? choice.model ?? null) : null,
      ...(countEchoes ? { countEchoes } : {}),
    }),
    attacker_digest: digestOf({ config: attacker.config, maxRuns: budget.maxRuns ?? null }),
    seed,
    repeat,
    per_task: perTask,
    budget_runs: budgetRuns ?? null,
    read_only: readOnlyGrants,
    ...(test === undefined ? {} : { confidence: test.confidence, threshold: test.threshold, max_repeats: test.maxRepeats }),
  }
  let known
  try {
    const saved = await readOptional(root, FRONTIER_FILE, FrontierFileSchema)
    if (saved !== null) {
      const was = saved.search
      const same =
        (
          [
            'target',
            'claim',
            'attacker',
            'claim_digest',
            'attacker_digest',
            'repeat',
            'read_only',
            'confidence',
            'threshold',
            'max_repeats',
          ] as const
        ).every((k) => was[k] === search[k]) &&
        (saved.shard?.index ?? null) === (shardJson?.index ?? null) &&
        (saved.shard?.count ?? null) === (shardJson?.count ?? null)
      if (!same) {
        throw new UsageError(
          `--out ${out} already holds another frontier search (${was.claim} against ${was.target} by ${was.attacker}, ` +
            `${was.confidence === undefined ? `repeat ${was.repeat}` : `confidence ${was.confidence}, threshold ${was.threshold}, max repeats ${was.max_repeats}`}` +
            `${was.read_only ? ', read-only grants' : ''}${saved.shard ? `, shard ${saved.shard.index}/${saved.shard.count}` : ''}): give this search its own folder`,
        )
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
      domain,
      attackerLabel: labels.attacker,
      attackerConfig: attacker.config,
      targetLabel: labels.target,
      claimLabel: labels.claim,
    })
  }
  const base = controllerFor(
    domain.roots.map((t) => t.name),
    [],
    root,
  ).meta(goals.length)
  const dirOf = (m: NamedModel) => experimentDirName({ ...base, scope: [...m.scope], readOnly: [...m.readOnly] })
  const runsOf = (m: NamedModel, runs: number) =>
    storages.slice(0, runs).map((_, r) => (treeOf(r) === '' ? '' : `${treeOf(r)}/`) + dirOf(m))
  // A named label is checked against every folder the search could read back (a derived one differs with its configuration).
  if (attackerLabel.forced !== null) {
    for (const [r, storage] of storages.entries()) {
      await refuseAttackerClash(storage, treeOf(r) === '' ? out : `${out}/${treeOf(r)}`, attackerLabel, {
        slug: slugOf(base),
        config: attacker.config,
        belongs: (dir, e) => e !== null && dir === dirOf({ scope: e.scope, readOnly: e.read_only }),
      })
    }
  }

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

  /** One run of the claim on this threat model into storage `r` (repeat r + 1), a finished experiment read back instead of rerun. */
  const runOnce = async (model: NamedModel, r: number): Promise<boolean[]> => {
    const storage = storages[r]
    const dir = dirOf(model)
    if (await isSettled(storage, dir, goals)) {
      const m = (await readOptional(storage, joinPath(dir, 'manifest.json'), ManifestFile))!
      taskErrors += m.tasks.filter((t) => t.status === 'error').length
      return goals.map((_, i) => m.tasks.find((t) => t.index === i + 1)?.success === true)
    }
    const result = await controllerFor(model.scope, model.readOnly, storage).run({ reporter, signal: cancel.signal })
    for (const n of notes) io.stderr(n)
    notes.clear()
    if (result.cancelled) throw new Stopped()
    taskErrors += result.taskResults.filter((t) => t.stopReason === 'error').length
    return goals.map((_, i) => result.taskResults.find((t) => t.index === i + 1)?.success === true)
  }

  /**
   * One evaluation: the claim `repeat` times on this threat model, one after another; with a test, the batch the
   * session asks for (at most `atOnce` runs side by side), after the runs it already has.
   */
  const evaluate = async (cover: Cover): Promise<Observation> => {
    const model = lattice.modelOf(cover)
    if (test === undefined) {
      const runs: boolean[][] = []
      for (let r = 0; r < storages.length; r++) runs.push(await runOnce(model, r))
      return { runs }
    }
    const had = session.current()?.observation.runs.length ?? 0
    const batch = Math.min(session.runsWanted(), atOnce)
    const settled = await Promise.allSettled(Array.from({ length: batch }, (_, i) => runOnce(model, had + i)))
    const failed = settled.find((x) => x.status === 'rejected')
    if (failed) throw failed.reason
    return { runs: settled.map((x) => (x as PromiseFulfilledResult<boolean[]>).value) }
  }

  const small = lattice.total <= COUNT_EVERY_STEP_UP_TO
  const questions = myTasks ?? undefined
  const session = new FrontierSession(lattice, {
    taskCount: goals.length,
    perTask,
    questions,
    seed,
    repeat,
    test,
    budgetRuns,
    known,
    counts: small,
  })
  const save = async (final: boolean, stopped = false) => {
    const live = session.answer(stopped)
    // A re-made session has not walked: completeness is the live one's. Beyond SCAN_LIMIT a complete answer's counts are derived.
    const answer =
      !final || small
        ? live
        : lattice.total > SCAN_LIMIT
          ? live.complete
            ? completeCounts(live, lattice.total)
            : live
          : new FrontierSession(lattice, {
              taskCount: goals.length,
              perTask,
              questions,
              seed,
              test,
              known: session.evaluations,
              counts: true,
            }).answer(stopped)
    const file = frontierFile(lattice, { ...answer, complete: live.complete }, search, goals, runsOf, shardJson)
    await root.writeTextAtomic(FRONTIER_FILE, `${JSON.stringify(file, null, 2)}\n`)
    return file
  }

  const resumed = session.evaluations.length
  io.stdout(
    `frontier of ${claimFile.name} against ${manifest.name} (${probe.url}): ${fmt(lattice.total)} threat models, ` +
      `${goals.length} task(s) each${perTask ? ', per task' : ''}${shardJson ? ` (shard ${shard.index}/${shard.count}: task(s) ${shardJson.tasks.join(', ') || 'none'})` : ''}, ` +
      `${
        test === undefined
          ? `${repeat} run(s) per evaluation`
          : `each run until a ${pctOf(test.confidence)} confidence sequence puts its success rate above or below ${test.threshold} ` +
            `(at most ${fmt(test.maxRepeats)} runs, ${atOnce} at once)`
      }, seeding ${seed}` +
      `${resumed > 0 ? `; resuming with ${fmt(resumed)} evaluation(s) from ${FRONTIER_FILE}` : ''}; results in ${out}\n`,
  )
  io.stdout(attackerLine(attackerLabel, attacker.config))
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
      const e = session.submit(observation)
      const m = lattice.modelOf(c)
      const t = tallyOf(e.observation, q)
      const counts = small ? session.counts() : null
      const what = q === 'claim' ? 'claim' : `task ${q + 1}`
      // Without a test, main's words (n and the Wilson interval); with one, the decision and the confidence sequence's interval.
      const said =
        test === undefined
          ? `${verdictOf(t) === 'win' ? 'wins' : 'loses'}: ${rateWords(t.wins, t.runs, { unit: 'run', attacker: labels.attacker }).text}`
          : `${{ win: 'wins', loss: 'loses', undecided: session.current() === null ? 'undecided' : 'running' }[session.decided(e, q)]} ` +
            `(${t.wins} of ${t.runs} run(s); rate in ${interval(outcomesOf(e.observation, q), test)})`
      io.stdout(
        `[${fmt(session.evaluations.length)}] ${what}: #${lattice.label(c)} [${m.scope.join(', ')}]${m.readOnly.length > 0 ? ` read only [${m.readOnly.join(', ')}]` : ''} ${said}` +
          `${counts ? `; decided by inference ${fmt(counts.inferred)}, undecided ${fmt(counts.undecided)}` : ''}\n`,
      )
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
  io.stdout(
    `evaluated ${fmt(file.evaluated)} of ${fmt(file.threat_models_total)} threat models (${pct(file.evaluated)})` +
      `${file.claim.decided_by_inference === null ? '' : `, ${fmt(file.claim.decided_by_inference)} decided by inference`}` +
      `${file.complete ? '' : `, ${file.claim.undecided === null ? 'some' : fmt(file.claim.undecided)} undecided`}\n`,
  )
  io.stdout(
    shardJson
      ? `shard ${shard.index}/${shard.count}: the claim's frontier comes from every task's: \`redscope merge\` the shards\n`
      : claimAnswerText(file, repeat),
  )
  for (const t of file.tasks) {
    io.stdout(
      `task ${t.index}: ${t.minimal_wins.length === 0 ? `not broken by any threat model run (${repeat} run(s) each)` : t.minimal_wins.map((m) => `[${m.scope.join(', ')}]${m.read_only.length > 0 ? ` read only [${m.read_only.join(', ')}]` : ''}`).join(' or ')}\n`,
    )
  }
  if (test !== undefined) reportTest(file, test, io)
  const problems: string[] = []
  const undecided = [file.claim, ...file.tasks].reduce((n, f) => n + (f.undecided_evaluated?.length ?? 0), 0)
  if (undecided > 0)
    problems.push(`${fmt(undecided)} evaluated threat model(s) undecided after their runs (see ${FRONTIER_FILE}: undecided_evaluated)`)
  if (file.contradictions.length > 0)
    problems.push(
      `${fmt(file.contradictions.length)} contradiction(s): a wider threat model lost where a narrower one won (see ${FRONTIER_FILE})`,
    )
  if (!file.complete)
    problems.push(
      stopped
        ? 'stopped before the frontiers were complete: run the same command again to resume'
        : 'the run budget ran out before the frontiers were complete',
    )
  if (taskErrors > 0) problems.push(`${fmt(taskErrors)} task(s) ended in error (counted as not broken)`)
  if (writeFailures.length > 0) problems.push(`${fmt(writeFailures.length)} results write(s) failed`)
  if (problems.length > 0) {
    io.stderr(`redscope frontier: ${problems.join('; ')}\n`)
    return EXIT_FINDINGS
  }
  return EXIT_OK
}

/**
 * The claim's answer: the minimal wins, then the maximal losses, each with the runs that decided it
 * (src/core/frontier/answer.ts). A loss says what was measured, "not broken in N runs by <attacker>".
 */
function claimAnswerText(file: FrontierFile, repeat: number): string {
  const a = answerWords(file)
  const line = (p: AnswerPoint) => `  #${p.index} ${p.words} ${p.verdict}${p.runs ? `: ${p.runs}` : ''}\n`
  const wins =
    a.minimalWins.length === 0
      ? `no threat model broke the claim in the runs made (${repeat} per evaluation): even the widest attacker lost\n`
      : `the weakest attackers that break the claim (${a.minimalWins.length}):\n${a.minimalWins.map(line).join('')}`
  const losses =
    a.maximalLosses.length === 0
      ? ''
      : `the widest attackers that did not break it in the runs made (${a.maximalLosses.length}):\n${a.maximalLosses.map(line).join('')}`
  return wins + losses
}

/** With a test: the undecided threat models and contradictions with their runs, what the answer guarantees, and its cost. */
function reportTest(file: FrontierFile, test: SequentialTest, io: CliIo): void {
  const g = file.guarantee!
  const undecided = [{ name: 'the claim', f: file.claim }, ...file.tasks.map((t) => ({ name: `task ${t.index}`, f: t }))].flatMap(
    ({ name, f }) => (f.undecided_evaluated ?? []).map((m) => ({ name, m })),
  )
  if (undecided.length > 0) {
    io.stdout(
      `undecided after their runs (their success rate may lie on either side of ${test.threshold}):\n` +
        undecided
          .map(
            ({ name, m }) =>
              `  ${name}: #${m.index} ${m.words}: ${m.tally!.wins} of ${m.tally!.runs} run(s), rate in ${bounds(...m.tally!.interval!)}` +
              ` (${m.runs[0] ?? ''}${m.runs.length > 1 ? ` and ${m.runs.length - 1} repeat folder(s)` : ''})\n`,
          )
          .join(''),
    )
  }
  for (const c of file.contradictions) {
    io.stdout(
      `contradiction${c.task === null ? '' : ` in task ${c.task}`}: #${c.narrower.index} won (${c.narrower_tally.wins} of ${c.narrower_tally.runs}, ${c.narrower.runs[0] ?? ''}) ` +
        `but the wider #${c.wider.index} lost (${c.wider_tally.wins} of ${c.wider_tally.runs}, ${c.wider.runs[0] ?? ''})\n`,
    )
  }
  const sweep = file.threat_models_total * test.maxRepeats
  io.stdout(
    `each decision is wrong with probability at most ${pctOf(g.per_decision_error_at_most)}; ` +
      `all ${g.decisions.toLocaleString('en-US')} decision(s) are right together with probability at least ${pctOf(g.all_right_at_least)} ` +
      `(inferred ones follow if the success rate is monotone); ${g.runs.toLocaleString('en-US')} run(s) of the claim, ` +
      `${pctOf(g.runs / sweep)} of a sweep of every threat model ${test.maxRepeats.toLocaleString('en-US')} times\n`,
  )
}
