/**
 * The Controller: one threat model (a claim against one scope and attacker
 * model), with superred's semantics (§2-§6). Tasks run concurrently up to the
 * target factory's concurrency; results come back in claim order.
 */
import { scopeNames, type SecurityDomain } from '../tags'
import { experimentDirName, type ExperimentMeta } from '../results/identityHash'
import { attackerConfig, derivedAttackerLabel, type AttackerConfig } from '../results/attackerConfig'
import { ExperimentSession } from '../results/writer'
import type { Storage } from '../results/storage'
import { Semaphore } from './async'
import type { LLMClientFactory } from './budget'
import { describeError, TaskCancelled } from './errors'
import { executeTask, type ExecuteEnv } from './executeTask'
import type { OptimizerFactory } from './optimizer'
import type { SkippedTask, TaskResult, ThreatModelResult } from './outcomes'
import type { DiagnosticLevel, ProgressReporter, ThreatModelInfo } from './reporter'
import { emptyTaskResult } from './runTask'
import { validateScopeArgs, type ScopeMode, type ScopeSpec } from './scopeResolution'
import type { SecurityClaim, Target, TargetFactory, Task } from './target'
import { EngineValueError, type EngineSemantics, type LLMConfig } from './types'
import type { ResultsSchemaVersion } from '../results/format'
import { DEFAULT_INCLUDE_FEEDBACK, DEFAULT_MAX_RUNS_PER_TASK } from '../defaults'

export { DEFAULT_MAX_RUNS_PER_TASK }
export const CLEANUP_GRACE_MS = 5000

export interface ControllerOptions {
  readonly optimizerFactory: OptimizerFactory
  readonly targetFactory: TargetFactory
  readonly securityClaim: SecurityClaim
  /** Read & write: a fixed scope or a per-task resolver (then `scopeLabel` is required). */
  readonly scope: ScopeSpec
  /** Visible but not injectable. */
  readonly readOnly?: ScopeSpec
  readonly llmConfig?: LLMConfig | null
  /** Builds the per-task client from llmConfig (e.g. the openai adapter). Required with llmConfig. */
  readonly llmClientFactory?: LLMClientFactory | null
  readonly taskCostCapUsd?: number | null
  readonly taskTimeCapS?: number | null
  readonly maxRunsPerTask?: number | null
  readonly includeFeedback?: boolean
  /**
   * Count a success the attacker echoed (its evidence is in the run's own injections, echo.ts) as a success.
   * Default false: such a run is judged a failure and recorded as echoed. Not part of the identity (superred's
   * hash is kept as it is): a resume that finds echoes judged the other way reruns those tasks.
   */
  readonly countEchoes?: boolean
  readonly scopeLabel?: string | null
  /** Where results go; none means nothing is persisted. */
  readonly storage?: Storage | null
  /** The results root inside the storage ('' = its root). */
  readonly resultsDir?: string
  readonly persist?: boolean
  readonly overwrite?: boolean
  /** The attacker's name in the folder (and so in the identity hash); by default derived from `attackerConfig`. */
  readonly attackerLabel?: string | null
  /**
   * The attacker's full configuration (payloads, model and sampling, the replayed run...; never a secret), recorded
   * in attacker_config.json. A folder that holds another configuration is never resumed (AttackerClashError).
   */
  readonly attackerConfig?: AttackerConfig | null
  readonly targetLabel?: string | null
  readonly claimLabel?: string | null
  /** The name the user saved this threat model under (threat_model.json): shown beside its scope, never part of its identity. */
  readonly threatModelName?: string | null
  /** The forest for domain.json; by default the first target's. */
  readonly domain?: SecurityDomain | null
  /** Its tags' framework references by name (the designer's forest, a target's manifest), written into domain.json. */
  readonly domainReferences?: ReadonlyMap<string, readonly string[]>
  /** Cleanup budget under cancellation (default 5 s, as the reference). */
  readonly cleanupGraceMs?: number
  /** Whose semantics: 'redscope' (default) or the published 'superred-0.3.0' (EngineSemantics). */
  readonly semantics?: EngineSemantics
  /** The results schema written: 5 by default, 4 (what superred 0.3.0 writes) by default under 'superred-0.3.0'. */
  readonly resultsSchema?: ResultsSchemaVersion
}

export interface RunOptions {
  readonly reporter?: ProgressReporter
  /** Aborting ends every task (targets torn down); completed tasks are kept, nothing is half-written. */
  readonly signal?: AbortSignal
  /**
   * Queue this experiment's experiments.json row instead of waiting for its write: for a sweep, which settles the
   * index once it ends (runAll does; see ExperimentsIndex).
   */
  readonly queueIndexRow?: boolean
}

export class Controller {
  readonly options: ControllerOptions
  readonly maxRunsPerTask: number
  private readonly mode: ScopeMode
  /** The attacker's configuration as results record it (secret-looking keys dropped). */
  private readonly recordedConfig: AttackerConfig | null

  constructor(options: ControllerOptions) {
    this.mode = validateScopeArgs(options.scope, options.readOnly ?? new Set(), options.scopeLabel ?? null)
    const maxRuns = options.maxRunsPerTask ?? DEFAULT_MAX_RUNS_PER_TASK
    if (!(maxRuns >= 1)) throw new EngineValueError('max_runs_per_task must be at least 1')
    const cap = options.taskCostCapUsd ?? null
    if (cap !== null && cap < 0) throw new EngineValueError('task_cost_cap_usd must be non-negative')
    const time = options.taskTimeCapS ?? null
    if (time !== null && time <= 0) throw new EngineValueError('task_time_cap_s must be positive')
    if (time !== null && options.semantics === 'superred-0.3.0') {
      throw new EngineValueError('task_time_cap_s does not exist in superred 0.3.0: leave it out with semantics superred-0.3.0')
    }
    if (options.resultsSchema !== undefined && options.resultsSchema !== 4 && options.resultsSchema !== 5) {
      throw new EngineValueError(`results schema ${String(options.resultsSchema)} cannot be written (4 or 5)`)
    }
    if ((options.llmConfig ?? null) !== null && !options.llmClientFactory) {
      throw new EngineValueError('llmConfig needs an llmClientFactory (e.g. openAiClientFactory from src/adapters/llm)')
    }
    this.options = options
    this.maxRunsPerTask = maxRuns
    this.recordedConfig = options.attackerConfig ? attackerConfig(options.attackerConfig) : null
  }

  get semantics(): EngineSemantics {
    return this.options.semantics ?? 'redscope'
  }

  /** The schema this controller writes: as given, else 4 under superred-0.3.0 semantics, else 5. */
  get resultsSchema(): ResultsSchemaVersion {
    return this.options.resultsSchema ?? (this.semantics === 'superred-0.3.0' ? 4 : 5)
  }

  /** The run-level scope (empty in resolver mode, where each task has its own). */
  get scopeMode(): ScopeMode {
    return this.mode
  }

  /** Attacker label, else one derived from its configuration, else the factory's function name (unless anonymous), else "optimizer". */
  private attackerName(): string {
    if (this.options.attackerLabel) return this.options.attackerLabel
    if (this.recordedConfig) return derivedAttackerLabel(this.recordedConfig)
    // An arrow in an options literal is named after its key; that is the JS lambda.
    const name = this.options.optimizerFactory.name
    return name && name !== 'anonymous' && name !== 'optimizerFactory' ? name : 'optimizer'
  }

  meta(nTasks: number | null): ExperimentMeta {
    const o = this.options
    return {
      attacker: this.attackerName(),
      target: o.targetLabel || 'target',
      claim: o.claimLabel || o.securityClaim.name,
      model: o.llmConfig?.model ?? null,
      scope: scopeNames(this.mode.namingScope),
      readOnly: scopeNames(this.mode.namingReadOnly),
      scopeLabel: this.mode.scopeLabel,
      taskCostCapUsd: o.taskCostCapUsd ?? null,
      taskTimeCapS: o.taskTimeCapS ?? null,
      maxRunsPerTask: this.maxRunsPerTask,
      includeFeedback: o.includeFeedback ?? DEFAULT_INCLUDE_FEEDBACK,
      concurrency: o.targetFactory.concurrency,
      nTasks,
      attackerConfig: this.recordedConfig,
    }
  }

  /** `{slug}-{hash8}`: the results folder and the key of this threat model in a shared view. */
  get label(): string {
    return experimentDirName(this.meta(0))
  }

  info(): ThreatModelInfo {
    return this.infoOf(this.meta([...this.options.securityClaim].length))
  }

  /** From the meta a run also opens its session with: the folder's name is then worked out once (see identityHash). */
  private infoOf(meta: ExperimentMeta): ThreatModelInfo {
    return {
      key: experimentDirName(meta),
      attacker: meta.attacker,
      target: meta.target,
      claim: meta.claim,
      model: meta.model,
      scope: meta.scope,
      readOnly: meta.readOnly,
      scopeLabel: meta.scopeLabel,
      nTasks: meta.nTasks ?? 0,
      maxRunsPerTask: meta.maxRunsPerTask,
    }
  }

  async run(runOptions: RunOptions = {}): Promise<ThreatModelResult> {
    const o = this.options
    const reporter = runOptions.reporter ?? {}
    const signal = runOptions.signal ?? new AbortController().signal
    const tasks: Task[] = [...o.securityClaim]
    const meta = this.meta(tasks.length)
    const info = this.infoOf(meta)
    const startedAt = new Date()
    let session: ExperimentSession | null = null
    let result: ThreatModelResult | null = null
    const diagnostic = (level: DiagnosticLevel, message: string, index?: number) => {
      session?.log(index ?? null, level, message)
      try {
        reporter.diagnostic?.(info, level, message, index)
      } catch {
        // A failing diagnostic sink must not turn a diagnostic into a failure.
      }
    }
    reporter.threatModelStart?.(info)
    try {
      if (o.storage && (o.persist ?? true)) {
        session = await ExperimentSession.open(
          o.storage,
          o.resultsDir ?? '',
          meta,
          tasks.map((t) => t.goal.description),
          { overwrite: o.overwrite ?? false, schema: this.resultsSchema, countEchoes: o.countEchoes ?? false },
        )
        // Independent files: one wait for all.
        await Promise.all([
          o.domain ? session.writeDomain(o.domain, o.domainReferences) : null,
          session.writeTaskConfigs(tasks),
          o.threatModelName?.trim() ? session.writeThreatModelName(o.threatModelName.trim()) : null,
        ])
      }
      const kept = new Map<number, TaskResult>()
      for (const index of [...(session?.plan.keep ?? [])].sort((a, b) => a - b)) {
        const tr = await session!.keptTaskResult(index, tasks[index - 1])
        kept.set(index, tr)
        reporter.taskComplete?.(info, tr)
      }
      const rerun = tasks.map((_, i) => i + 1).filter((i) => !kept.has(i))
      const { reran, skipped, cancelled } = await this.iterateTasks(tasks, rerun, session, reporter, info, signal, diagnostic)
      const taskResults = tasks.map((_, i) => reran.get(i + 1) ?? kept.get(i + 1)).filter((r): r is TaskResult => r !== undefined)
      const endedAt = new Date()
      result = {
        scope: this.mode.namingScope,
        readOnly: this.mode.namingReadOnly,
        llmConfig: o.llmConfig ? { model: o.llmConfig.model } : null,
        taskResults,
        taskCostCapUsd: o.taskCostCapUsd ?? null,
        skippedTasks: skipped,
        scopeLabel: this.mode.scopeLabel,
        startedAt,
        endedAt,
        cancelled,
        resultsDir: session?.dir ?? null,
      }
      if (session !== null) {
        const s = session
        session = null
        try {
          if (cancelled) await s.abort()
          else await s.finalize(startedAt, endedAt, { queueIndexRow: runOptions.queueIndexRow })
        } catch (error) {
          diagnostic('error', `failed to finalize results (continuing): ${describeError(error)}`)
        }
      }
      return result
    } finally {
      if (session !== null) await session.abort().catch(() => {})
      try {
        if (result !== null) reporter.threatModelEnd?.(info, result)
      } catch (error) {
        diagnostic('error', `reporter threatModelEnd failed: ${describeError(error)}`)
      }
    }
  }

  private async iterateTasks(
    tasks: readonly Task[],
    rerun: readonly number[],
    session: ExperimentSession | null,
    reporter: ProgressReporter,
    info: ThreatModelInfo,
    signal: AbortSignal,
    diagnostic: (level: DiagnosticLevel, message: string, index?: number) => void,
  ) {
    const o = this.options
    const semaphore = new Semaphore(o.targetFactory.concurrency)
    const reran = new Map<number, TaskResult>()
    const skipped: SkippedTask[] = []
    let cancelled = false
    let domainPending = !o.domain && session !== null

    const runOne = async (index: number, task: Task): Promise<void> => {
      let release: () => void
      try {
        release = await semaphore.acquire(signal)
      } catch {
        cancelled = true
        return
      }
      const goal = task.goal.description
      try {
        reporter.taskStart?.(info, index, goal)
        session?.beginTask(index)
        const startedAt = new Date()
        const env: ExecuteEnv = {
          optimizerFactory: o.optimizerFactory,
          llmConfig: o.llmConfig ?? null,
          llmClientFactory: o.llmClientFactory ?? null,
          taskCostCapUsd: o.taskCostCapUsd ?? null,
          maxRunsPerTask: this.maxRunsPerTask,
          includeFeedback: o.includeFeedback ?? DEFAULT_INCLUDE_FEEDBACK,
          countEchoes: o.countEchoes ?? false,
          graceMs: o.cleanupGraceMs ?? CLEANUP_GRACE_MS,
          scope: o.scope,
          readOnly: o.readOnly ?? new Set(),
          targetFactory: o.targetFactory,
          taskTimeCapS: o.taskTimeCapS ?? null,
          semantics: this.semantics,
          onRunComplete: (run) => reporter.runComplete?.(info, index, run),
          onTurn: reporter.turn === undefined ? undefined : (runNumber, turn) => reporter.turn?.(info, index, runNumber, turn),
          diagnostic: (level, message) => diagnostic(level, message, index),
          onTargetCreated: async (target: Target) => {
            if (!domainPending || session === null) return
            domainPending = false
            try {
              await session.writeDomain(target.securityDomain, o.domainReferences)
            } catch (error) {
              diagnostic('error', `could not write domain.json: ${describeError(error)}`, index)
            }
          },
        }
        const outcome = await executeTask(env, index, task, signal)
        if (outcome.kind === 'skipped') {
          skipped.push({ task, index, reason: outcome.reason })
          reporter.taskSkipped?.(info, index, goal, outcome.reason)
          session?.markSkipped(index, goal)
          return
        }
        const tr: TaskResult = { ...outcome.result, startedAt, endedAt: new Date() }
        reran.set(index, tr)
        if (session !== null) {
          try {
            await session.publishTask(index, tr)
          } catch (error) {
            diagnostic('error', `failed to persist task (continuing): ${describeError(error)}`, index)
          }
        }
        reporter.taskComplete?.(info, tr)
      } catch (error) {
        if (error instanceof TaskCancelled && error.why === 'cancelled') {
          cancelled = true
          return
        }
        // An orchestration failure (a reporter callback, persistence) fails this task only.
        diagnostic('error', `orchestration error, recording as error: ${describeError(error)}`, index)
        const tr = emptyTaskResult(task, index, { stopReason: 'error', rationale: 'Unexpected orchestration error.', error })
        reran.set(index, tr)
        try {
          reporter.taskComplete?.(info, tr)
        } catch {
          // The reporter is already failing; the result stands.
        }
      } finally {
        release()
      }
    }

    await Promise.all(rerun.map((i) => runOne(i, tasks[i - 1])))
    skipped.sort((a, b) => a.index - b.index)
    return { reran, skipped, cancelled }
  }
}
