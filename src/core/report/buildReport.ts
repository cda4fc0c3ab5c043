/**
 * Builds the report of one experiment or of a sweep (several experiments over
 * one forest) from a results tree, read through the results reader: each
 * threat model with its grant in words, each task's outcome, the best run's
 * key steps (what the attacker wrote, what the optimizer declined, the run end
 * and its evaluation), cost and time, and the forest painted with the results.
 */
import { complianceSummary, threatModelWords, type ComplianceCell } from '../compliance/summary'
import { attackerReading, docFromForest, tagIdOf, type ScopePair } from '../model'
import { buildFinding, DEFAULT_FINDING_OPTIONS, type FindingStep } from '../finding'
import { buildReplay, coverageFor, MARK_LABELS } from '../replay'
import type { PersistedItemLike } from '../replay/items'
import { readExperiment, readTasks, readTrajectory, type ExperimentRecord, type TaskRecord } from '../results/reader'
import { readAttackerView, type AttackerView } from '../results/attackerView'
import type { IterationJson } from '../results/format'
import { costWords, sumUnpriced } from '../results/cost'
import { runEndsSummary, runEndWords } from '../results/runEndWords'
import type { Storage } from '../results/storage'
import { paintForest, paintFrontier, type GrantNames } from '../sweep/paint'
import type { AnswerPoint, FrontierAnswerWords } from '../frontier/answer'
import type { Forest } from '../tags'
import type { Report, ReportBestRun, ReportFrontier, ReportStep, ReportTask, ReportTagPaint, ReportThreatModel } from './reportModel'

export interface ReportOptions {
  readonly kind: 'experiment' | 'sweep'
  readonly title: string
  /** Where the results were read from, as the user named it (a folder, a zip, a URL). */
  readonly source: string
  readonly now: Date
  /** A forest the user attached, used when an experiment has no domain.json. */
  readonly forest?: Forest | null
  /** Key steps shown per best run. */
  readonly maxKeySteps?: number
  /** Each field's text is cut to this many characters, saying how long it was. */
  readonly maxFieldChars?: number
  /** Best runs whose steps are read, at most (a sweep of thousands of tasks stays quick); the rest say so. */
  readonly maxTrajectories?: number
  /**
   * A frontier search's answer to the same question, when one is known: the forest then shows the frontier's view,
   * and with its `answer` (src/core/frontier/answer.ts) the report lists its minimal wins and maximal losses.
   */
  readonly frontier?: {
    readonly minimalWins: readonly GrantNames[]
    readonly source: string
    readonly answer?: FrontierAnswerWords | null
  } | null
}

const KEY_MARKS = new Set(['injection', 'declined-optimizer', 'run-end'])

/** The run a reader wants to see first: a success, else the highest score; the earliest among equals. */
export function bestRunOf(runs: readonly IterationJson[]): IterationJson | null {
  let best: IterationJson | null = null
  for (const r of runs) {
    if (
      best === null ||
      (r.success && !best.success) ||
      (r.success === best.success &&
        (r.primary_score > best.primary_score || (r.primary_score === best.primary_score && r.run_number < best.run_number)))
    )
      best = r
  }
  return best
}

/**
 * The steps worth reading in a run: each injection with the call it answered, declines by the optimizer, the run
 * end, and a hidden step whose text reached the attacker through the evaluation's feedback.
 */
export function keyStepsOf(steps: readonly FindingStep[], max: number): FindingStep[] {
  const keep = new Set<number>()
  steps.forEach((s, i) => {
    if (s.learnedVia !== null) keep.add(i)
    if (!KEY_MARKS.has(s.mark)) return
    keep.add(i)
    if (s.mark === 'injection' && i > 0) keep.add(i - 1)
  })
  const picked = [...keep].sort((a, b) => a - b).map((i) => steps[i])
  if (picked.length <= max) return picked
  // Too many: the first injections and the run end (the outcome is what a reader looks for last).
  const end = picked.filter((s) => s.mark === 'run-end').slice(-1)
  return [...picked.filter((s) => s.mark !== 'run-end').slice(0, max - end.length), ...end]
}

function secondsBetween(a: string | null, b: string | null): number | null {
  if (!a || !b) return null
  const ms = Date.parse(b) - Date.parse(a)
  return Number.isFinite(ms) && ms >= 0 ? ms / 1000 : null
}

function grantWords(forest: Forest | null, pair: { scope: readonly string[]; readOnly: readonly string[] }): string {
  if (forest) {
    try {
      let n = 0
      const doc = docFromForest(forest, () => tagIdOf(`report-${n++}`), { scope: pair.scope, readOnly: pair.readOnly })
      const ids: ScopePair = { scope: doc.scope, readOnly: doc.readOnly }
      return attackerReading(doc.tags, ids).summary
    } catch {
      /* a forest superred would refuse: fall back to names */
    }
  }
  const list = (xs: readonly string[]) => (xs.length ? xs.join(', ') : 'nothing')
  return `May read and write: ${list(pair.scope)}. May only read: ${list(pair.readOnly)}. (No forest known: what lies under these tags is not listed.)`
}

async function bestRun(
  storage: Storage,
  task: TaskRecord,
  forest: Forest | null,
  options: Required<Pick<ReportOptions, 'maxKeySteps' | 'maxFieldChars'>>,
): Promise<ReportBestRun | null> {
  const best = bestRunOf(task.iterations?.runs ?? [])
  if (best === null) return null
  const base = {
    number: best.run_number,
    score: best.primary_score,
    success: best.success,
    cost: best.usage_cumulative.cost,
    seconds: best.timing.duration_s,
    ...runWords(task, best),
  }
  let full: Awaited<ReturnType<typeof readTrajectory>>
  let attacker: AttackerView | null = null
  try {
    full = await readTrajectory(storage, task.dir, best.run_number, 'full')
    attacker = await readAttackerView(storage, task.dir, best.run_number).catch(() => null)
  } catch (e) {
    return { ...base, keySteps: [], otherSteps: 0, missing: `its trajectory could not be read: ${(e as Error).message}` }
  }
  if (full === null) return { ...base, keySteps: [], otherSteps: 0, missing: 'its trajectory file is missing' }
  const grant = { scope: task.task.scope, readOnly: task.task.read_only }
  const replay = buildReplay(
    full.trajectory as PersistedItemLike[],
    (attacker?.file.trajectory ?? null) as PersistedItemLike[] | null,
    coverageFor(forest, grant),
    attacker?.source,
  )
  const finding = buildFinding(
    replay,
    {
      experiment: { dir: '', attacker: '', target: '', claim: '', model: '' },
      task: { index: task.task.index, goal: task.task.goal, status: task.task.status, stopReason: task.task.stop_reason },
      run: { number: best.run_number, score: best.primary_score, success: best.success, cumulativeCost: best.usage_cumulative.cost },
      forest,
      evaluation: null,
      exportedAt: '',
    },
    new Map(),
    { ...DEFAULT_FINDING_OPTIONS, maxFieldChars: options.maxFieldChars },
  )
  const key = keyStepsOf(finding.steps, options.maxKeySteps)
  const steps: ReportStep[] = key.map((s) => ({
    index: s.index,
    step: s.step,
    what: MARK_LABELS[s.mark],
    type: s.type,
    mark: s.mark,
    domain: s.domain,
    seenByAttacker: s.seenByAttacker,
    learnedVia: s.learnedVia,
    fields: s.fields,
  }))
  return { ...base, keySteps: steps, otherSteps: finding.totalSteps - steps.length, missing: '' }
}

/** A run's cumulative cost and its ending in words, from run_records.json where the tree has it. */
function runWords(
  task: TaskRecord,
  run: { run_number: number; usage_cumulative: { cost: number; calls: number } },
): { costText: string; ended: string } {
  const records = task.runRecords?.runs ?? []
  const unpriced = sumUnpriced(records.filter((r) => r.run_number <= run.run_number).map((r) => r.unpriced))
  const own = records.find((r) => r.run_number === run.run_number)
  return {
    costText: costWords(run.usage_cumulative.cost, unpriced, { calls: run.usage_cumulative.calls }),
    ended: own?.ended_by ? runEndWords(own.ended_by, own.turns, true) : '',
  }
}

const anchorOf = (prefix: string, i: number) => `${prefix}-${i + 1}`

function leftOut(task: TaskRecord, cap: number): ReportBestRun | null {
  const best = bestRunOf(task.iterations?.runs ?? [])
  if (best === null) return null
  return {
    number: best.run_number,
    score: best.primary_score,
    success: best.success,
    cost: best.usage_cumulative.cost,
    seconds: best.timing.duration_s,
    ...runWords(task, best),
    keySteps: [],
    otherSteps: 0,
    missing: `the report reads the steps of at most ${cap} best runs; open this task in the viewer`,
  }
}

export async function buildReport(storage: Storage, dirs: readonly string[], opts: ReportOptions): Promise<Report> {
  const options = { maxKeySteps: opts.maxKeySteps ?? 12, maxFieldChars: opts.maxFieldChars ?? 4_000 }
  let trajectoriesLeft = opts.maxTrajectories ?? 200
  const notes: string[] = []
  const experiments: ExperimentRecord[] = []
  for (const dir of dirs) {
    try {
      experiments.push(await readExperiment(storage, dir))
    } catch (e) {
      notes.push(`${dir} could not be read (${(e as Error).message}); it is not in this report.`)
    }
  }
  const forest = experiments.find((e) => e.domain !== null)?.domain ?? opts.forest ?? null
  const models: ReportThreatModel[] = []
  const tasks: ReportTask[] = []
  const cells: ComplianceCell[] = []
  for (const [i, rec] of experiments.entries()) {
    const e = rec.manifest.experiment
    const s = rec.manifest.summary
    const modelAnchor = anchorOf('tm', i)
    const expForest = rec.domain ?? forest
    const records = await readTasks(storage, rec.dir, rec.echoes)
    const echoed = new Map((rec.echoes?.tasks ?? []).map((t) => [t.index, t.runs]))
    const taskAnchors: string[] = []
    for (const t of records) {
      const anchor = `${modelAnchor}-task-${t.task.index}`
      taskAnchors.push(anchor)
      tasks.push({
        anchor,
        modelAnchor,
        index: t.task.index,
        goal: t.task.goal,
        status: t.task.status,
        stopReason: t.task.stop_reason,
        config: Object.entries(rec.taskConfigs.get(t.task.index) ?? {}),
        success: t.task.success,
        bestScore: t.task.best_score.value,
        runs: t.task.n_runs,
        cost: t.task.llm_usage.cost,
        costText: costWords(t.task.llm_usage.cost, t.runRecords?.unpriced ?? rec.unpriced.get(t.task.index), {
          calls: t.task.llm_usage.calls,
        }),
        runEnds: runEndsSummary((t.runRecords?.runs ?? []).map((r) => r.ended_by)),
        seconds: t.task.timing.duration_s ?? secondsBetween(t.task.timing.started_at, t.task.timing.ended_at),
        error: t.task.error ?? '',
        echoedRuns: echoed.get(t.task.index) ?? [],
        echoesCounted: rec.echoes?.count_echoes ?? false,
        bestRun: trajectoriesLeft-- > 0 ? await bestRun(storage, t, expForest, options) : leftOut(t, opts.maxTrajectories ?? 200),
      })
    }
    const pair = { scope: e.scope, readOnly: e.read_only }
    const threatModel = threatModelWords(rec.threatModelName ?? e.scope_label ?? '', e.scope, e.read_only)
    for (const t of records) {
      cells.push({
        threatModel,
        scope: e.scope,
        readOnly: e.read_only,
        taskReferences: rec.taskReferences.get(t.task.index) ?? [],
        breached: t.task.success,
        runs: t.task.n_runs,
      })
    }
    models.push({
      anchor: modelAnchor,
      dir: rec.dir,
      label: rec.threatModelName ?? e.scope_label ?? '',
      attacker: e.attacker,
      scope: e.scope,
      readOnly: e.read_only,
      grants: grantWords(expForest, pair),
      status: rec.manifest.status,
      asr: s.asr,
      nSuccess: s.n_success,
      nCompleted: s.n_completed,
      nTasks: s.n_tasks,
      cost: s.total_llm_usage.cost,
      calls: s.total_llm_usage.calls,
      unpriced: sumUnpriced(rec.unpriced.values()),
      costText: costWords(s.total_llm_usage.cost, sumUnpriced(rec.unpriced.values()), { calls: s.total_llm_usage.calls }),
      seconds: secondsBetween(rec.manifest.timing.started_at, rec.manifest.timing.completed_at),
      configuration: [
        ['attacker', e.attacker],
        ['target', e.target],
        ['claim', e.claim],
        ['model', e.model ?? 'no LLM'],
        ['runs per task at most', String(e.max_runs_per_task)],
        ['cost cap per task', e.task_cost_cap_usd === null ? 'none' : `$${e.task_cost_cap_usd}`],
        ['time cap per task', e.task_time_cap_s === null ? 'none' : `${e.task_time_cap_s} s`],
        ['feedback to the attacker', e.include_feedback ? 'yes' : 'no'],
        ...(rec.echoes
          ? [['echoes (success on text the attacker injected)', rec.echoes.count_echoes ? 'counted as breaches' : 'not counted'] as const]
          : []),
        ['tasks at once', String(e.concurrency)],
      ],
      taskAnchors,
      echoRuns: [...echoed.values()].reduce((n, runs) => n + runs.length, 0),
      echoTasks: echoed.size,
    })
  }
  let paint: ReportTagPaint[] | null = null
  if (forest) {
    const contrast = paintForest(
      forest,
      models.map((m) => ({ key: m.anchor, scope: m.scope, readOnly: m.readOnly, nSuccess: m.nSuccess, nCompleted: m.nCompleted })),
    )
    const frontier = opts.frontier ? paintFrontier(forest, opts.frontier.minimalWins) : null
    const one = models.length === 1 ? coverageFor(forest, { scope: models[0].scope, readOnly: models[0].readOnly }) : null
    paint = forest.tags.map((t) => ({
      name: t.name,
      parent: t.parent,
      description: t.description,
      contrast: contrast.get(t.name)!,
      frontier: frontier?.get(t.name) ?? null,
      grant: one === null ? 'none' : one.isWritable(t.name) ? 'write' : one.isVisible(t.name) ? 'read' : 'none',
    }))
  }
  const seconds = models.every((m) => m.seconds === null) ? null : models.reduce((a, m) => a + (m.seconds ?? 0), 0)
  return {
    kind: opts.kind,
    title: opts.title,
    source: opts.source,
    generatedAt: opts.now.toISOString(),
    notes,
    forest: paint,
    forestNote:
      forest === null ? 'No forest is known for these results (no domain.json, none attached): tags are listed by name only.' : '',
    frontierSource: forest !== null && opts.frontier ? opts.frontier.source : '',
    frontier: opts.frontier?.answer ? frontierSection(opts.frontier.source, opts.frontier.answer) : null,
    models,
    tasks,
    compliance: complianceSummary(forest, cells),
    totals: {
      cost: models.reduce((a, m) => a + m.cost, 0),
      // A tree mixing priced and unpriced calls says both ("$0.0123 + unpriced (…)"), never one sum that reads as whole.
      costText: costWords(
        models.reduce((a, m) => a + m.cost, 0),
        sumUnpriced(models.map((m) => m.unpriced)),
        { calls: models.reduce((a, m) => a + m.calls, 0) },
      ),
      seconds,
      nSuccess: models.reduce((a, m) => a + m.nSuccess, 0),
      nCompleted: models.reduce((a, m) => a + m.nCompleted, 0),
      nTasks: models.reduce((a, m) => a + m.nTasks, 0),
      echoRuns: tasks.reduce((a, t) => a + t.echoedRuns.length, 0),
      echoRunsCounted: tasks.reduce((a, t) => a + (t.echoesCounted ? t.echoedRuns.length : 0), 0),
    },
  }
}

/** The frontier as the report lists it: the answer's own words, each point with the experiment folders that decided it. */
function frontierSection(source: string, a: FrontierAnswerWords): ReportFrontier {
  const point = (p: AnswerPoint) => ({ index: p.index, words: p.words, verdict: p.verdict, runs: p.runs, dirs: p.dirs })
  return {
    source,
    progress: a.progress,
    none: a.none,
    complete: a.complete,
    minimalWins: a.minimalWins.map(point),
    maximalLosses: a.maximalLosses.map(point),
  }
}
