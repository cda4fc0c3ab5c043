/**
 * The channel between the Controller (sender) and the optimizer (receiver):
 * the sender awaits one response per event, the receiver pulls envelopes at
 * its own pace. Rules as the reference's EventChannel.
 */
import { removeItem } from './async'
import { EngineRuntimeError } from './errors'
import { RESPONSE_TYPES, type Event, type EventResponse } from './events'

export { EngineRuntimeError }

export class EventEnvelope {
  readonly event: Event
  private settled = false
  private readonly resolve: (response: EventResponse) => void
  private readonly rejectSender: (error: unknown) => void
  private readonly onSettled: (envelope: EventEnvelope) => void

  constructor(event: Event, resolve: (r: EventResponse) => void, reject: (e: unknown) => void,
    onSettled: (envelope: EventEnvelope) => void) {
    this.event = event
    this.resolve = resolve
    this.rejectSender = reject
    this.onSettled = onSettled
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
    this.onSettled(this)
    this.resolve(response)
  }

  /** Makes the sender's `send` throw. A no-op once settled, so it is safe in cleanup paths. */
  reject(error: unknown): void {
    if (this.settled) return
    this.settled = true
    this.onSettled(this)
    this.rejectSender(error)
  }
}

export class EventChannel implements AsyncIterable<EventEnvelope> {
  private readonly queue: EventEnvelope[] = []
  private readonly receivers: Array<(envelope: EventEnvelope | null) => void> = []
  /** Taken by the receiver but not yet answered: rejected too on poison, so no sender can hang. */
  // An array, not a Set: it holds one envelope at a time, and a Set refilled per event rehashes each time.
  private readonly inFlight: EventEnvelope[] = []
  private closed = false
  private error: { value: unknown } | null = null

  /** One callback for all envelopes, rather than a closure per send. */
  private readonly settle = (envelope: EventEnvelope) => {
    removeItem(this.inFlight, envelope)
  }

  /** Sends an event and waits for its response (or the receiver's error). */
  send(event: Event): Promise<EventResponse> {
    if (this.error !== null) return Promise.reject(this.error.value)
    if (this.closed) return Promise.reject(new EngineRuntimeError('Cannot send on a closed EventChannel'))
    return new Promise<EventResponse>((resolve, reject) => {
      const envelope = new EventEnvelope(event, resolve, reject, this.settle)
      const receiver = this.receivers.shift()
      if (receiver) {
        this.inFlight.push(envelope)
        receiver(envelope)
      } else {
        this.queue.push(envelope)
      }
    })
  }

  /** The next envelope, or null once the channel is closed and drained. */
  receive(): Promise<EventEnvelope | null> {
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
  }

  /**
   * Poisons the channel: queued (and taken but unanswered) envelopes are
   * rejected with `error`, later sends throw it. A no-op once closed.
   */
  setError(error: unknown): void {
    if (this.closed) return
    this.error = { value: error }
    this.closed = true
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
