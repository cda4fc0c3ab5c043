/**
 * The attacker side (superred `Optimizer`): an actor that consumes the
 * channel as a concurrent task and answers each event.
 */
import type { LLMClient } from './budget'
import type { EventAnswerer, EventChannel, EventEnvelope } from './channel'
import type { Event, EventResponse, ReadableTrajectory } from './events'
import type { AttackerNote } from './outcomes'
import type { Controllable, Goal, ObservableValue } from './types'

export interface Optimizer {
  /**
   * Called once per task before the first run. `controllables` are the
   * writable surfaces; `observables` include read-only controllables
   * re-presented as observables (content null).
   */
  initialize(goal: Goal, controllables: readonly Controllable[], observables: readonly ObservableValue[], llm: LLMClient): Promise<void>
  /** Consumes the channel until it closes. Throwing poisons the channel and fails the task. */
  run(channel: EventChannel): Promise<void>
  teardown(): Promise<void>
  /** Optional: what the attacker recorded of its reasoning, read once the task ends (redscope extra). */
  attackerNotes?(): readonly AttackerNote[]
}

/** A fresh optimizer per task. Its `name` (if not anonymous) is the default attacker label. */
export type OptimizerFactory = () => Optimizer

/**
 * Sequential optimizer base: `run` has the channel hand each envelope to
 * `dispatch`, which tracks the current and past trajectories around
 * `onEvent`. Subclasses implement `onEvent`; a custom `run` should still
 * call `dispatch`.
 */
export abstract class BaseOptimizer implements Optimizer {
  private llmClient: LLMClient | null = null
  private readonly past: ReadableTrajectory[] = []
  private current: ReadableTrajectory | null = null
  private offer: { goal: Goal; controllables: readonly Controllable[]; observables: readonly ObservableValue[] } | null = null

  /** Keeps what the task offers, for subclasses (superred's optimizer keeps it too). */
  async initialize(
    goal: Goal,
    controllables: readonly Controllable[],
    observables: readonly ObservableValue[],
    llm: LLMClient,
  ): Promise<void> {
    this.llmClient = llm
    this.offer = { goal, controllables, observables }
  }

  /** The task's goal, as given to `initialize` ('' before it). */
  get goalDescription(): string {
    return this.offer?.goal.description ?? ''
  }

  /** The writable surfaces offered at `initialize`. */
  get offeredControllables(): readonly Controllable[] {
    return this.offer?.controllables ?? []
  }

  /** The visible surfaces offered at `initialize`, read-only controllables included. */
  get offeredObservables(): readonly ObservableValue[] {
    return this.offer?.observables ?? []
  }

  /**
   * Consumes the channel. Without an overridden `dispatch`, the channel calls
   * `dispatch`'s steps directly (`serveEach`), one event at a time and in
   * order, and an event sent while none waits is answered with `onEvent`'s
   * own promise (a pulling loop costs a receive promise, a wake-up and an
   * async call per event; an envelope, a promise and its resolvers more). An
   * override is called from a loop, each call awaited before the next
   * envelope is taken, as before.
   */
  run(channel: EventChannel): Promise<void> {
    if (this.dispatch === BaseOptimizer.prototype.dispatch) return channel.serveEach(this.#steps)
    return this.pullAndDispatch(channel)
  }

  private async pullAndDispatch(channel: EventChannel): Promise<void> {
    for (let envelope = await channel.receive(); envelope !== null; envelope = await channel.receive()) {
      await this.dispatch(envelope)
    }
  }

  /** `dispatch`'s steps, for the channel to call: RunStart sets the current trajectory, RunEnd archives it. */
  readonly #steps: EventAnswerer = {
    answer: (event) => this.onEvent(this.beforeEvent(event)),
    handled: (event) => {
      if (event.type === 'RunEndEvent') this.archiveCurrent()
    },
  }

  abstract onEvent(event: Event): Promise<EventResponse>

  /**
   * Lifecycle around `onEvent`: RunStart sets the current trajectory, RunEnd
   * archives it (also when `onEvent` throws). A throw rejects the envelope, so
   * the sender is never left waiting, and is re-thrown.
   */
  protected async dispatch(envelope: EventEnvelope): Promise<void> {
    const event = this.beforeEvent(envelope.event)
    let response: EventResponse
    try {
      response = await this.onEvent(event)
    } catch (error) {
      this.eventFailed(envelope, error)
    }
    this.answer(envelope, response)
  }

  private beforeEvent(event: Event): Event {
    if (event.type === 'RunStartEvent') this.current = event.trajectory
    return event
  }

  private eventFailed(envelope: EventEnvelope, error: unknown): never {
    if (envelope.event.type === 'RunEndEvent') this.archiveCurrent()
    envelope.reject(error)
    throw error
  }

  private answer(envelope: EventEnvelope, response: EventResponse): void {
    if (envelope.event.type === 'RunEndEvent') this.archiveCurrent()
    envelope.respond(response)
  }

  private archiveCurrent(): void {
    if (this.current !== null) this.past.push(this.current)
    this.current = null
  }

  /** Completed runs' views, oldest first (a copy). */
  get pastTrajectories(): readonly ReadableTrajectory[] {
    return [...this.past]
  }

  get currentTrajectory(): ReadableTrajectory | null {
    return this.current
  }

  /** The client given to `initialize`. Throws if a subclass skipped `super.initialize`. */
  get llm(): LLMClient {
    if (this.llmClient === null) throw new Error('llm is available after initialize() (call super.initialize)')
    return this.llmClient
  }

  async teardown(): Promise<void> {}
}
