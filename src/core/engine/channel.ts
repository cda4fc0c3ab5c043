/**
 * The channel between the Controller (sender) and the optimizer (receiver):
 * the sender awaits one response per event. The receiver either pulls
 * envelopes at its own pace (`receive`, for an optimizer that overrides
 * `dispatch`), or registers an answerer (`serveEach`, BaseOptimizer's default)
 * whose answer goes straight back to the sender. Rules as the reference's
 * EventChannel. Why the answerer path exists: ./README.md.
 */
import { removeItem } from './async'
import { EngineRuntimeError } from './errors'
import { RESPONSE_TYPES, responseAllowed, type Event, type EventResponse } from './events'

export { EngineRuntimeError }

function wrongResponse(event: Event, response: EventResponse): TypeError {
  return new TypeError(`${event.type} requires response of type ${RESPONSE_TYPES[event.type]!.join(', ')}, got ${response.type}`)
}

/** Told when an envelope settles: answered (responded), or rejected with `error`. */
type SettleHook = (envelope: EventEnvelope, answered: boolean, error: unknown) => void

export class EventEnvelope {
  readonly event: Event
  private settled = false
  private readonly resolve: (response: EventResponse) => void
  private readonly rejectSender: (error: unknown) => void
  private readonly onSettled: SettleHook
  private readonly onResponse: ((response: EventResponse) => void) | undefined

  constructor(
    event: Event,
    resolve: (r: EventResponse) => void,
    reject: (e: unknown) => void,
    onSettled: SettleHook,
    onResponse?: (response: EventResponse) => void,
  ) {
    this.event = event
    this.resolve = resolve
    this.rejectSender = reject
    this.onSettled = onSettled
    this.onResponse = onResponse
  }

  get isSettled(): boolean {
    return this.settled
  }

  /**
   * Delivers the response. A type the event does not allow rejects the
   * sender with the same TypeError (so it never hangs) and throws it here.
   */
  respond(response: EventResponse): void {
    if (!responseAllowed(this.event, response)) {
      const error = wrongResponse(this.event, response)
      this.reject(error)
      throw error
    }
    if (this.settled) throw new EngineRuntimeError('EventEnvelope already responded/rejected')
    this.settled = true
    let taken = true
    if (this.onResponse !== undefined) {
      try {
        this.onResponse(response)
      } catch (error) {
        // The sender's side failed to take the response (a closed trajectory): its failure, not the responder's.
        taken = false
        this.rejectSender(error)
      }
    }
    if (taken) this.resolve(response)
    this.onSettled(this, true, undefined)
  }

  /** Makes the sender's `send` throw. A no-op once settled, so it is safe in cleanup paths. */
  reject(error: unknown): void {
    if (this.settled) return
    this.settled = true
    this.rejectSender(error)
    this.onSettled(this, false, error)
  }
}

/**
 * A receiver that answers each event by a call (BaseOptimizer's steps):
 * `answer` starts handling an event and gives its response or a promise of
 * it (a throw or a rejection is the receiver's failure); `handled` is told
 * once that handling is over, answered or failed, before the response is
 * checked and delivered.
 */
export interface EventAnswerer {
  answer(event: Event): EventResponse | PromiseLike<EventResponse>
  handled(event: Event): void
}

/** The registered answerer and the promise `serveEach` returned, settled when serving ends. */
interface Serving {
  /** An event sent while nothing waits is answered by it without an envelope; a queued one, through its envelope. */
  readonly answerer: EventAnswerer
  /** An event answered straight to its sender is being handled (it has no envelope). */
  direct: boolean
  readonly resolve: () => void
  readonly reject: (error: unknown) => void
  /** Handed over and not yet settled: the next one waits for it. */
  current: EventEnvelope | null
  /** Inside the hand-over loop: a settle reached from within it lets that loop go on (no recursion). */
  pumping: boolean
  ended: boolean
}

export class EventChannel {
  private readonly queue: EventEnvelope[] = []
  private readonly receivers: Array<(envelope: EventEnvelope | null) => void> = []
  /** Taken by the receiver but not yet answered: rejected too on poison, so no sender can hang. */
  // An array, not a Set: it holds one envelope at a time, and a Set refilled per event rehashes each time.
  private readonly inFlight: EventEnvelope[] = []
  private closed = false
  private error: { value: unknown } | null = null
  private serving: Serving | null = null
  // The resolvers of the promise being made by `send`: captured by one executor made once, not a closure per send.
  private resolveSent: ((response: EventResponse) => void) | null = null
  private rejectSent: ((error: unknown) => void) | null = null
  private readonly capture = (resolve: (response: EventResponse) => void, reject: (error: unknown) => void) => {
    this.resolveSent = resolve
    this.rejectSent = reject
  }

  /** One callback for all envelopes, rather than a closure per send. */
  private readonly settle: SettleHook = (envelope, answered, error) => {
    removeItem(this.inFlight, envelope)
    const serving = this.serving
    if (serving === null || serving.current !== envelope) return
    serving.current = null
    if (answered) this.pump(serving)
    else this.stopServing(serving, error)
  }

  /**
   * Sends an event and waits for its response (or the receiver's error).
   * `onResponse` sees the response as it is delivered, before the sender
   * resumes (the run's recorder); if it throws, the send rejects with that.
   */
  send(event: Event, onResponse?: (response: EventResponse) => void): Promise<EventResponse> {
    if (this.error !== null) return Promise.reject(this.error.value)
    if (this.closed) return Promise.reject(new EngineRuntimeError('Cannot send on a closed EventChannel'))
    const serving = this.serving
    if (serving !== null && serving.current === null && !serving.direct && !serving.ended && this.queue.length === 0) {
      return this.answerDirectly(serving, serving.answerer, event, onResponse)
    }
    const sent = new Promise<EventResponse>(this.capture)
    const envelope = new EventEnvelope(event, this.resolveSent!, this.rejectSent!, this.settle, onResponse)
    this.resolveSent = null
    this.rejectSent = null
    this.queue.push(envelope)
    if (serving !== null) {
      // A direct hand-off: no receive() promise, no wake-up of a pulling loop.
      this.pump(serving)
      return sent
    }
    const receiver = this.receivers.shift()
    if (receiver) {
      this.queue.pop()
      this.inFlight.push(envelope)
      receiver(envelope)
    }
    return sent
  }

  /**
   * Registers the receiver as an answerer instead of a pulling loop: each
   * event is handed to it as soon as the one before was answered, in order
   * (queued meanwhile), so a target sending concurrently is still answered
   * one event at a time. Resolves once the channel is closed and drained;
   * rejects with the receiver's failure, after which nothing more is handed
   * over (the queued envelopes wait for `setError`, as with a loop that
   * stopped pulling). The serial hand-off's fast path: an event sent while none is
   * being handled or queued gets the answerer's own promise, followed by the
   * check and the delivery, with no envelope and no promise of the channel's
   * (a send costs what awaiting the optimizer's handler directly does).
   * Events sent meanwhile are queued as envelopes and answered in turn. Such
   * a direct event cannot be rejected from outside: poisoned meanwhile
   * (`setError`), its sender gets the poison once the handling ends, not at
   * once (an optimizer that serves this way fails only through an event).
   */
  serveEach(answerer: EventAnswerer): Promise<void> {
    if (this.serving !== null) return Promise.reject(new EngineRuntimeError('EventChannel is already served'))
    if (this.receivers.length > 0) return Promise.reject(new EngineRuntimeError('EventChannel is already received from'))
    return new Promise<void>((resolve, reject) => {
      const serving: Serving = { answerer, direct: false, resolve, reject, current: null, pumping: false, ended: false }
      this.serving = serving
      this.pump(serving)
    })
  }

  // The event answered directly and its recorder: one in flight at a time, so fields rather than a closure per send.
  private directEvent: Event | null = null
  private directOnResponse: ((response: EventResponse) => void) | undefined = undefined

  private answerDirectly(
    serving: Serving,
    answerer: EventAnswerer,
    event: Event,
    onResponse: ((response: EventResponse) => void) | undefined,
  ): Promise<EventResponse> {
    serving.direct = true
    this.directEvent = event
    this.directOnResponse = onResponse
    let pending: Promise<EventResponse>
    try {
      // Promise.resolve: a plain-JS answerer may give a value rather than a promise.
      pending = Promise.resolve(answerer.answer(event))
    } catch (error) {
      pending = Promise.reject(error)
    }
    return pending.then(this.directAnswered, this.directFailed)
  }

  /** The direct event's response: checked, recorded, handed back; then the next queued event is handed over. */
  private readonly directAnswered = (response: EventResponse): EventResponse => {
    const serving = this.serving!
    const event = this.directEvent!
    const onResponse = this.directOnResponse
    this.directEvent = null
    this.directOnResponse = undefined
    serving.answerer.handled(event)
    serving.direct = false
    // Poisoned while it was handled: as a taken envelope, its sender gets the poison, whatever the answer.
    if (this.error !== null) throw this.error.value
    if (!responseAllowed(event, response)) {
      const error = wrongResponse(event, response)
      this.stopServing(serving, error)
      throw error
    }
    let failure: { error: unknown } | null = null
    if (onResponse !== undefined) {
      try {
        onResponse(response)
      } catch (error) {
        // The sender's side failed to take the response (a closed trajectory): its failure, not the responder's.
        failure = { error }
      }
    }
    this.pump(serving)
    if (failure !== null) throw failure.error
    return response
  }

  /** The direct event's handling failed: serving stops with that error, which the sender gets too (unless poisoned meanwhile). */
  private readonly directFailed = (error: unknown): never => {
    const serving = this.serving!
    const event = this.directEvent!
    this.directEvent = null
    this.directOnResponse = undefined
    serving.answerer.handled(event)
    serving.direct = false
    this.stopServing(serving, error)
    // Poisoned while it was handled: the sender gets the poison, as a taken envelope would have.
    throw this.error !== null ? this.error.value : error
  }

  // A queued event under serveEach: answered by the answerer, settled on its envelope (one at a time, so a field).
  private answering: EventEnvelope | null = null
  private answerEnvelope(serving: Serving, envelope: EventEnvelope): void {
    this.answering = envelope
    let pending: Promise<EventResponse>
    try {
      pending = Promise.resolve(serving.answerer.answer(envelope.event))
    } catch (error) {
      pending = Promise.reject(error)
    }
    void pending.then(this.envelopeAnswered, this.envelopeFailed)
  }

  private readonly envelopeAnswered = (response: EventResponse): void => {
    const envelope = this.takeAnswering()
    try {
      envelope.respond(response)
    } catch {
      // A wrong response type rejected the envelope, which stopped serving with that TypeError.
    }
  }

  private readonly envelopeFailed = (error: unknown): void => {
    this.takeAnswering().reject(error)
  }

  private takeAnswering(): EventEnvelope {
    const envelope = this.answering!
    this.answering = null
    this.serving!.answerer.handled(envelope.event)
    return envelope
  }

  /** Hands queued envelopes over while none is being handled; ends serving once closed and drained. */
  private pump(serving: Serving): void {
    if (serving.pumping) return
    serving.pumping = true
    while (!serving.ended && serving.current === null && !serving.direct) {
      const next = this.queue.shift()
      if (next === undefined) {
        if (this.closed) this.endServing(serving)
        break
      }
      serving.current = next
      this.inFlight.push(next)
      // Settles the envelope later (its answer is a promise): `settle` pumps the next one, or stops serving.
      this.answerEnvelope(serving, next)
    }
    serving.pumping = false
  }

  private stopServing(serving: Serving, error: unknown): void {
    if (serving.ended) return
    serving.ended = true
    serving.reject(error)
  }

  private endServing(serving: Serving): void {
    if (serving.ended) return
    serving.ended = true
    serving.resolve()
  }

  /** The next envelope, or null once the channel is closed and drained. */
  receive(): Promise<EventEnvelope | null> {
    if (this.serving !== null) return Promise.reject(new EngineRuntimeError('EventChannel is served by a handler'))
    const next = this.queue.shift()
    if (next) {
      this.inFlight.push(next)
      return Promise.resolve(next)
    }
    if (this.closed) return Promise.resolve(null)
    return new Promise((resolve) => this.receivers.push(resolve))
  }

  /** No more events will be sent; `receive` gives null (and serving ends) once the queue drains. */
  close(): void {
    if (this.closed) return
    this.closed = true
    this.wakeReceivers()
    if (this.serving !== null) this.pump(this.serving)
  }

  /**
   * Poisons the channel: queued (and taken but unanswered) envelopes are
   * rejected with `error`, later sends throw it. A no-op once closed.
   */
  setError(error: unknown): void {
    if (this.closed) return
    this.error = { value: error }
    this.closed = true
    // First, as a pulling loop is woken with "closed": serving ends without an error of its own.
    if (this.serving !== null) this.endServing(this.serving)
    for (const envelope of this.queue.splice(0)) envelope.reject(error)
    for (const envelope of [...this.inFlight]) envelope.reject(error)
    this.wakeReceivers()
  }

  get isClosed(): boolean {
    return this.closed
  }

  private wakeReceivers(): void {
    for (const receiver of this.receivers.splice(0)) receiver(null)
  }
}
