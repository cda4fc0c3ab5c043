/**
 * The attacker side (superred `Optimizer`): an actor that consumes the
 * channel as a concurrent task and answers each event.
 */
import type { LLMClient } from './budget'
import type { EventChannel, EventEnvelope } from './channel'
import type { Event, EventResponse, ReadableTrajectory } from './events'
import type { Controllable, Goal, ObservableValue } from './types'

export interface Optimizer {
  /**
   * Called once per task before the first run. `controllables` are the
   * writable surfaces; `observables` include read-only controllables
   * re-presented as observables (content null).
   */
  initialize(goal: Goal, controllables: readonly Controllable[], observables: readonly ObservableValue[],
    llm: LLMClient): Promise<void>
  /** Consumes the channel until it closes. Throwing poisons the channel and fails the task. */
  run(channel: EventChannel): Promise<void>
  teardown(): Promise<void>
}

/** A fresh optimizer per task. Its `name` (if not anonymous) is the default attacker label. */
export type OptimizerFactory = () => Optimizer

/**
 * Sequential optimizer base: `run` hands each envelope to `dispatch`, which
 * tracks the current and past trajectories around `onEvent`. Subclasses
 * implement `onEvent`; a custom `run` should still call `dispatch`.
 */
export abstract class BaseOptimizer implements Optimizer {
  private llmClient: LLMClient | null = null
  private readonly past: ReadableTrajectory[] = []
  private current: ReadableTrajectory | null = null
  private offer: { goal: Goal; controllables: readonly Controllable[]; observables: readonly ObservableValue[] } | null = null

  /** Keeps what the task offers, for subclasses (superred's optimizer keeps it too). */
  async initialize(goal: Goal, controllables: readonly Controllable[], observables: readonly ObservableValue[],
    llm: LLMClient): Promise<void> {
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

  async run(channel: EventChannel): Promise<void> {
    // `receive` directly, not `for await`: an async iterator costs a few promises per event.
    // Without an overridden `dispatch`, its steps run inline: one async call less per event
    // (each await of an async call allocates ~0.4 KB, and the run loop's garbage was its main cost).
    const inline = this.dispatch === BaseOptimizer.prototype.dispatch
    for (let envelope = await channel.receive(); envelope !== null; envelope = await channel.receive()) {
      if (!inline) {
        await this.dispatch(envelope)
        continue
      }
      const event = this.beforeEvent(envelope)
      let response: EventResponse
      try {
        response = await this.onEvent(event)
      } catch (error) {
        this.eventFailed(envelope, error)
      }
      this.answer(envelope, response)
    }
  }

  abstract onEvent(event: Event): Promise<EventResponse>

  /**
   * Lifecycle around `onEvent`: RunStart sets the current trajectory, RunEnd
   * archives it (also when `onEvent` throws). A throw rejects the envelope, so
   * the sender is never left waiting, and is re-thrown.
   */
  protected async dispatch(envelope: EventEnvelope): Promise<void> {
    const event = this.beforeEvent(envelope)
    let response: EventResponse
    try {
      response = await this.onEvent(event)
    } catch (error) {
      this.eventFailed(envelope, error)
    }
    this.answer(envelope, response)
  }

  private beforeEvent(envelope: EventEnvelope): Event {
    const event = envelope.event
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
