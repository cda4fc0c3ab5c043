/**
 * The channel between the Controller (sender) and the optimizer (receiver):
 * the sender awaits one response per event. The receiver either pulls
 * envelopes at its own pace (`receive`, async iteration) or registers one
 * handler (`serve`) that the channel calls directly, one envelope at a time.
 * Rules as the reference's EventChannel.
 */
import { removeItem } from './async'
import { EngineRuntimeError } from './errors'
import { RESPONSE_TYPES, type Event, type EventResponse } from './events'

export { EngineRuntimeError }

/** Told when an envelope settles: answered (responded), or rejected with `error`. */
type SettleHook = (envelope: EventEnvelope, answered: boolean, error: unknown) => void

export class EventEnvelope {
  readonly event: Event
  private settled = false
  private readonly resolve: (response: EventResponse) => void
  private readonly rejectSender: (error: unknown) => void
  private readonly onSettled: SettleHook
  private readonly onResponse: ((response: EventResponse) => void) | undefined

  constructor(event: Event, resolve: (r: EventResponse) => void, reject: (e: unknown) => void,
    onSettled: SettleHook, onResponse?: (response: EventResponse) => void) {
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
    const allowed = RESPONSE_TYPES[this.event.type]
    if (allowed !== null && !allowed.includes(response.type)) {
      const error = new TypeError(`${this.event.type} requires response of type ${allowed.join(', ')}, got ${response.type}`)
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
 * Handles one envelope: it must settle it, at once or later. Answered, the
 * handling is over and the next envelope is handed over; rejected, serving
 * stops with that error (the optimizer failed), as does a throw.
 */
export type EnvelopeHandler = (envelope: EventEnvelope) => void

/** The registered handler and the promise `serve` returned, settled when serving ends. */
interface Serving {
  readonly handler: EnvelopeHandler
  readonly resolve: () => void
  readonly reject: (error: unknown) => void
  /** Handed over and not yet settled: the next one waits for it. */
  current: EventEnvelope | null
  /** Inside the hand-over loop: a settle from within the handler lets that loop go on (no recursion). */
  pumping: boolean
  ended: boolean
}

export class EventChannel implements AsyncIterable<EventEnvelope> {
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
    const sent = new Promise<EventResponse>(this.capture)
    const envelope = new EventEnvelope(event, this.resolveSent!, this.rejectSent!, this.settle, onResponse)
    this.resolveSent = null
    this.rejectSent = null
    this.queue.push(envelope)
    const serving = this.serving
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
   * Registers the receiver as a handler instead of a pulling loop: each
   * envelope is handed to it as soon as the one before was answered, in
   * order (queued meanwhile), so a target sending concurrently is still
   * answered one event at a time. Resolves once the channel is closed and
   * drained; rejects with the handler's error, after which nothing more is
   * handed over (the queued envelopes wait for `setError`, as with a loop
   * that stopped pulling).
   */
  serve(handler: EnvelopeHandler): Promise<void> {
    if (this.serving !== null) return Promise.reject(new EngineRuntimeError('EventChannel is already served'))
    if (this.receivers.length > 0) return Promise.reject(new EngineRuntimeError('EventChannel is already received from'))
    return new Promise<void>((resolve, reject) => {
      const serving: Serving = { handler, resolve, reject, current: null, pumping: false, ended: false }
      this.serving = serving
      this.pump(serving)
    })
  }

  /** Hands queued envelopes over while none is being handled; ends serving once closed and drained. */
  private pump(serving: Serving): void {
    if (serving.pumping) return
    serving.pumping = true
    while (!serving.ended && serving.current === null) {
      const next = this.queue.shift()
      if (next === undefined) {
        if (this.closed) this.endServing(serving)
        break
      }
      serving.current = next
      this.inFlight.push(next)
      try {
        serving.handler(next)
      } catch (error) {
        this.stopServing(serving, error)
      }
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

  /** No more events will be sent; the receiver's iteration ends after the queue drains. */
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

  async *[Symbol.asyncIterator](): AsyncIterator<EventEnvelope> {
    for (;;) {
      const envelope = await this.receive()
      if (envelope === null) return
      yield envelope
    }
  }
}
