/**
 * The ports a threat model plugs into the Controller: the system under test
 * (Target, built per task by a TargetFactory), what is attempted against it
 * (Task, grouped in a SecurityClaim).
 */
import type { SecurityDomain } from '../tags'
import type { ControllableEvent, ControllableResponse, ReadableTrajectory, TrajectoryItem } from './events'
import type { ConfigSpec, Controllable, EvaluationResult, Goal, ObservableValue, QuerySpec } from './types'
import { EngineValueError } from './types'

/** Records a one-way item on the run's trajectory (fire and forget). Throws once the run is closed. */
export type Emit = (item: TrajectoryItem) => void

/**
 * Pauses the target at a controllable until it is answered: by the optimizer,
 * or by the framework with `declinedBy: "scope"` when the surface is not writable.
 */
export type SendEvent = (event: ControllableEvent) => Promise<ControllableResponse>

/** The AI system under test (superred `Target`). One instance serves one task. */
export interface Target {
  readonly configSpecs: readonly ConfigSpec[]
  /** Names are not validated by the framework. May be async (e.g. a remote target). */
  setConfig(name: string, value: string): void | Promise<void>
  readonly querySpecs: readonly QuerySpec[]
  /** A post-run query for the evaluator. May be async. */
  query(name: string, params?: Readonly<Record<string, string>>): string | Promise<string>
  readonly securityDomain: SecurityDomain
  getControllables(): readonly Controllable[]
  getObservables(): readonly ObservableValue[]
  /**
   * One run. `emit` records observations; `sendEvent` pauses at each
   * controllable. `signal` aborts when the run is cancelled: a target should
   * stop promptly and may reject.
   */
  run(emit: Emit, sendEvent: SendEvent, signal?: AbortSignal): Promise<void>
  /** Called after every run that is not the task's last. */
  resetEphemeralState(): Promise<void>
  /** Called once per task, always, even after an error or cancellation. */
  teardown(): Promise<void>
}

/** Builds one Target per task; `concurrency` tasks may run at once. */
export interface TargetFactory {
  create(): Target | Promise<Target>
  readonly concurrency: number
}

export function targetFactory(create: () => Target | Promise<Target>, concurrency = 1): TargetFactory {
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new EngineValueError('TargetFactory.concurrency must be at least 1')
  }
  return Object.freeze({ create, concurrency })
}

/** Shares one instance across tasks (concurrency pinned to 1); teardown is still called once per task. */
export function singletonTargetFactory(target: Target): TargetFactory {
  return targetFactory(() => target, 1)
}

/**
 * Raised by a scope resolver or by `Task.configureTarget` when the task does
 * not apply to this threat model: the task is skipped, not failed.
 */
export class NotApplicable extends Error {
  constructor(message = 'not applicable') {
    super(message)
    this.name = 'NotApplicable'
  }
}

/**
 * A target that serves its own claim's tasks (a superred claim served on the bridge beside its target):
 * the task configures the target over there, and every finished run is evaluated there by the task's own
 * code. A redscope Task whose work happens on the target's side calls these.
 */
export interface ServedTaskTarget extends Target {
  /** Runs task `task`'s (1-based) configure on the target's side; throws NotApplicable when it does not apply. */
  configureServedTask(task: number): Promise<void>
  /** The served task's evaluation of the last finished run; throws when it raised or there is none. */
  servedEvaluation(): EvaluationResult
}

export function servesTasks(target: Target): target is ServedTaskTarget {
  const t = target as Partial<ServedTaskTarget>
  return typeof t.configureServedTask === 'function' && typeof t.servedEvaluation === 'function'
}

/** One attack goal with its setup and judge (superred `Task`). */
export interface Task {
  readonly goal: Goal
  /**
   * The configuration the task sets on the target before its runs (a claim
   * file's `config`, e.g. the demo targets' `defence`): recorded beside the
   * results (task_configs.json, a redscope extra) so a reader can tell apart
   * tasks that share a goal. Optional: superred's tasks configure in code.
   */
  readonly config?: Readonly<Record<string, string>>
  /** Framework references the task (and its claim) carries: recorded with its config, summarised by reports. */
  readonly references?: readonly string[]
  /** May throw NotApplicable to skip the task. */
  configureTarget(target: Target): void | Promise<void>
  /** Judges a run on the full (unfiltered) trajectory. */
  evaluate(trajectory: ReadableTrajectory, target: Target): Promise<EvaluationResult>
}

const CONSTRUCT = Symbol('SecurityClaim.construct')

/**
 * An ordered, re-iterable collection of tasks. Built only through `fromTasks`
 * or `fromClaims`, as in the reference.
 */
export class SecurityClaim implements Iterable<Task> {
  /** The claim's label for results folders (the reference uses the class name). */
  readonly name: string
  private readonly source: () => Iterable<Task>

  constructor(token: symbol, source: () => Iterable<Task>, name: string) {
    if (token !== CONSTRUCT) throw new TypeError('Use SecurityClaim.from_tasks() or SecurityClaim.from_claims()')
    this.source = source
    this.name = name
  }

  static fromTasks(tasks: Iterable<Task>, name = 'SecurityClaim'): SecurityClaim {
    const list = [...tasks]
    if (list.length === 0) throw new EngineValueError('At least one task required')
    return new SecurityClaim(CONSTRUCT, () => list, name)
  }

  /** Chains claims lazily, in order: each is iterated afresh on every pass. */
  static fromClaims(claims: Iterable<SecurityClaim>, name = 'SecurityClaim'): SecurityClaim {
    const list = [...claims]
    if (list.length === 0) throw new EngineValueError('At least one claim required')
    return new SecurityClaim(
      CONSTRUCT,
      function* () {
        for (const claim of list) yield* claim
      },
      name,
    )
  }

  [Symbol.iterator](): Iterator<Task> {
    return this.source()[Symbol.iterator]()
  }
}
