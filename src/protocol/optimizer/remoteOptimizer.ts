/**
 * An optimizer that lives on an Optimizer-over-HTTP server (a superred
 * Optimizer behind `redscope-bridge serve --optimizer`). One instance is one
 * session, as one superred task has one optimizer: `initialize` opens it,
 * each event is one request carrying what the run's view gained since the
 * last one, and the channel closing closes it (its run's late failure, if
 * any, fails the task as superred's would). The server's answers carry the
 * session's LLM usage, which the task's ServedLlmClient holds for the
 * Controller, and the attacker model's replies, kept as the task's notes.
 */
import {
  BaseOptimizer,
  BudgetExhaustedError,
  injection,
  noInjection,
  plainResponse,
  runEndResponse,
  type AttackerNote,
  type Controllable,
  type ControllableEvent,
  type Event,
  type EventChannel,
  type EventResponse,
  type Goal,
  type LLMClient,
  type ObservableValue,
} from '../../core/engine'
import { TargetRequestError, type ProtocolClient } from '../protocolClient'
import {
  EventAnswerSchema,
  SessionClosedSchema,
  SessionOpenedSchema,
  type EventAnswer,
  type EventBody,
  type LlmCallWire,
  type OpenSessionBody,
  type UsageWire,
} from './schemas'
import { ServedLlmClient } from './servedLlm'
import { controllableWire, eventWire, itemWire, offeredObservableWire, TagLedger } from './wireItems'

export interface RemoteOptimizerOptions {
  /** The served optimizer's name on that server. */
  readonly name: string
  readonly kwargs: Readonly<Record<string, unknown>>
  /** How long opening keeps retrying on 503 `capacity`. Default 10 minutes. */
  readonly capacityWaitMs?: number
}

const CLOSE_TIMEOUT_MS = 5000
const DEFAULT_CAPACITY_WAIT_MS = 10 * 60 * 1000
const MAX_RETRY_AFTER_S = 60

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export class RemoteOptimizer extends BaseOptimizer {
  private readonly client: ProtocolClient
  private readonly options: RemoteOptimizerOptions
  private readonly tags = new TagLedger()
  private sessionPath: string | null = null
  private usageMirror: ServedLlmClient | null = null
  private runNumber = 0
  private readonly notes: AttackerNote[] = []

  constructor(client: ProtocolClient, options: RemoteOptimizerOptions) {
    super()
    this.client = client
    this.options = options
  }

  /** The attacker model's replies, per run (redscope extra: `attacker_notes.json`). */
  attackerNotes(): readonly AttackerNote[] {
    return [...this.notes]
  }

  override async initialize(
    goal: Goal,
    controllables: readonly Controllable[],
    observables: readonly ObservableValue[],
    llm: LLMClient,
  ): Promise<void> {
    await super.initialize(goal, controllables, observables, llm)
    this.usageMirror = llm instanceof ServedLlmClient ? llm : null
    const body: OpenSessionBody = {
      optimizer: this.options.name,
      kwargs: { ...this.options.kwargs },
      goal: { description: goal.description },
      controllables: controllables.map((c) => controllableWire(c, this.tags)),
      observables: observables.map((o) => offeredObservableWire(o, this.tags)),
      security_domain: [],
      task_cost_cap_usd: llm.costCapUsd,
    }
    body.security_domain = this.tags.take()
    const opened = await this.open(body)
    this.sessionPath = `/optimizer-sessions/${encodeURIComponent(opened.session_id)}`
    this.took(opened.usage, opened.llm_calls, 'initialize')
  }

  private async open(body: OpenSessionBody) {
    const deadline = Date.now() + (this.options.capacityWaitMs ?? DEFAULT_CAPACITY_WAIT_MS)
    for (;;) {
      try {
        return await this.client.call('POST', '/optimizer-sessions', body, SessionOpenedSchema)
      } catch (e) {
        if (e instanceof TargetRequestError && e.status === 503) {
          const waitMs = Math.min(e.retryAfterSeconds ?? 1, MAX_RETRY_AFTER_S) * 1000
          if (Date.now() + waitMs <= deadline) {
            await sleep(waitMs)
            continue
          }
        }
        throw this.translated(e)
      }
    }
  }

  /** A `budget_exhausted` answer is superred's BudgetExhaustedError (the task stops as budget_exhausted). */
  private translated(e: unknown): unknown {
    if (e instanceof TargetRequestError && e.code === 'budget_exhausted') {
      return new BudgetExhaustedError(e.serverMessage ?? e.message, this.usageMirror?.usage ?? { calls: 0, cost: 0 })
    }
    return e
  }

  private took(usage: UsageWire, calls: readonly LlmCallWire[], during: string): void {
    this.usageMirror?.record(usage)
    for (const call of calls) {
      if (call.reply !== null) this.notes.push({ run: this.runNumber, during, text: call.reply })
    }
  }

  async onEvent(event: Event): Promise<EventResponse> {
    if (this.sessionPath === null) throw new Error('the served optimizer has no session: initialize() first')
    if (event.type === 'RunStartEvent') this.runNumber += 1
    const body: EventBody = { event: eventWire(event, this.tags), trajectory: this.newItems(event).map((i) => itemWire(i, this.tags)) }
    body.security_domain = this.tags.take()
    let answer: EventAnswer
    try {
      answer = await this.client.call('POST', `${this.sessionPath}/events`, body, EventAnswerSchema)
    } catch (e) {
      throw this.translated(e)
    }
    this.took(answer.usage, answer.llm_calls, event.type)
    const r = answer.response
    switch (r.type) {
      case 'EventResponse':
        return plainResponse(event)
      case 'RunEndResponse':
        return runEndResponse(event, r.done)
      case 'ControllableInjection':
      case 'ControllableNoInjection':
        if (event.type !== 'ControllablePreCallEvent' && event.type !== 'ControllablePostCallEvent') {
          // What superred's channel refuses too: a controllable response to a RunStart or RunEnd.
          throw new TypeError(`${event.type} was answered with ${r.type}`)
        }
        return r.type === 'ControllableInjection' ? injection(event as ControllableEvent, r.value) : noInjection(event, 'optimizer')
    }
  }

  /**
   * What the run's view gained since the last message, without the event itself: superred's Controller puts a
   * pre/post-call and the RunEnd on the view just before it sends them, and the server does the same.
   */
  private newItems(event: Event) {
    if (event.type === 'RunStartEvent') {
      this.currentTrajectory?.drain()
      return []
    }
    const view = this.currentTrajectory
    if (view === null) throw new Error(`${event.type} outside a run: no RunStartEvent came first`)
    const items = view.drain()
    if (items.length === 0 || items[items.length - 1] !== event) {
      throw new Error(`${event.type} is not the last item on the run's view, as superred records it before sending`)
    }
    return items.slice(0, -1)
  }

  /** Consumes the channel, then closes the session: a run that failed after its last event fails the task. */
  override async run(channel: EventChannel): Promise<void> {
    await super.run(channel)
    const error = await this.close()
    if (error !== null) throw new Error(`the served optimizer's run failed: ${error}`)
  }

  override async teardown(): Promise<void> {
    await this.close().catch(() => null)
  }

  private async close(): Promise<string | null> {
    const path = this.sessionPath
    if (path === null) return null
    this.sessionPath = null
    const timeout = AbortSignal.timeout(CLOSE_TIMEOUT_MS)
    try {
      const closed = await this.client.call('DELETE', path, undefined, SessionClosedSchema, timeout)
      this.took(closed.usage, closed.llm_calls, 'teardown')
      return closed.error
    } catch (e) {
      // Already gone (expired, or the server restarted): nothing to close, nothing it can still say.
      if (e instanceof TargetRequestError && e.status === 404) return null
      throw e
    }
  }
}
