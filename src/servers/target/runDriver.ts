/**
 * Drives one run of a TypeScript Target for the protocol: the target runs
 * here, and each time it reaches a controllable its `sendEvent` suspends
 * until the client's response arrives over HTTP. One pause = one round trip.
 */
import {
  injection,
  noInjection,
  type ControllableEvent,
  type ControllableResponse,
  type Emit,
  type Target,
  type TrajectoryItem,
} from '../../core/engine'
import type { Pause, RunEvent, RunStep, WireResponse } from '../../protocol/schemas'
import { ProtocolHttpError } from '../http/jsonIo'

interface PendingCall {
  readonly callId: string
  readonly pause: Pause
  readonly event: ControllableEvent
  readonly resolve: (response: ControllableResponse) => void
  readonly reject: (error: unknown) => void
}

type Outcome = { readonly status: 'finished' } | { readonly status: 'failed'; readonly error: string }

/** The wire form of an emitted item. Only observations travel; pauses go through `sendEvent`. */
function wireEvent(item: TrajectoryItem): RunEvent {
  if (item.type !== 'ObservableEvent') {
    throw new TypeError(`only ObservableEvent can be emitted over the protocol (got ${item.type})`)
  }
  const own = item.observable.securityDomain
  const event: RunEvent = {
    type: 'ObservableEvent',
    observable: {
      name: item.observable.name,
      security_domain: own?.name ?? null,
      description: item.observable.description,
      observable_type: item.observable.observableType,
    },
    content: item.content ?? null,
    event_id: item.eventId,
    timestamp: item.timestamp,
  }
  // The draft: an event may carry its own domain to override the observable's.
  if (item.securityDomain !== own) event.security_domain = item.securityDomain?.name ?? null
  return event
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}

export class RunDriver {
  readonly id: string
  private readonly buffer: RunEvent[] = []
  private pending: PendingCall | null = null
  private outcome: Outcome | null = null
  private waiter: ((step: RunStep) => void) | null = null
  private readonly abort = new AbortController()
  private calls = 0

  constructor(id: string, target: Target) {
    this.id = id
    const emit: Emit = (item) => {
      // A run cut short by the client may still emit while unwinding: dropped.
      if (this.outcome === null && !this.abort.signal.aborted) this.buffer.push(wireEvent(item))
    }
    target
      .run(emit, (event) => this.pause(event), this.abort.signal)
      .then(
        () => this.settle({ status: 'finished' }),
        (error: unknown) => this.settle({ status: 'failed', error: errorText(error) }),
      )
  }

  /** True while the run is paused or working: a new run must wait. */
  get active(): boolean {
    return this.outcome === null && !this.abort.signal.aborted
  }

  /** Resolves at the next pause or at the run's end, with what was emitted since the last step. */
  nextStep(): Promise<RunStep> {
    if (this.waiter !== null) {
      return Promise.reject(new ProtocolHttpError(409, 'not_pending', `run ${this.id} is already answering a request`))
    }
    return new Promise((resolve) => {
      this.waiter = resolve
      this.wake()
    })
  }

  /** Resumes the run with the client's response to the pending call. */
  respond(callId: string, response: WireResponse): void {
    const pending = this.pending
    if (pending === null || pending.callId !== callId) {
      const expected = pending === null ? 'no call is pending' : `the pending call is ${pending.callId}`
      throw new ProtocolHttpError(409, 'not_pending', `call ${callId} is not pending in run ${this.id}: ${expected}`)
    }
    this.pending = null
    pending.resolve(
      response.type === 'ControllableInjection'
        ? injection(pending.event, response.value)
        : noInjection(pending.event, response.declined_by),
    )
  }

  /** Stops the run (session deleted or expired): a pending `sendEvent` rejects. */
  cancel(reason: string): void {
    if (this.abort.signal.aborted) return
    // A run that has ended has nothing left to stop: no error is built (a reset follows every run,
    // and a DOMException, stack and all, was a visible share of a protocol step's server time).
    if (this.outcome !== null && this.pending === null) return
    const error = new DOMException(reason, 'AbortError')
    this.abort.abort(error)
    this.pending?.reject(error)
    this.pending = null
  }

  private pause(event: ControllableEvent): Promise<ControllableResponse> {
    if (this.abort.signal.aborted) return Promise.reject(this.abort.signal.reason)
    if (this.pending !== null) {
      // The protocol has one pending call per run: a target that pauses
      // concurrently would deadlock the client, so that is a target error.
      return Promise.reject(new Error('the target paused again before its previous pause was answered'))
    }
    const callId = `c${++this.calls}`
    const c = event.controllable
    // Literals in the order the wire always had, no spreads (this runs at every step); an undefined
    // descriptor is left out by JSON.stringify, as the spread left it out.
    const descriptor =
      c.securityDomain === null
        ? undefined
        : { security_domain: c.securityDomain.name, description: c.description, value_type: c.valueType }
    const pause: Pause =
      event.type === 'ControllablePreCallEvent'
        ? {
            call_id: callId,
            controllable: c.name,
            request: event.request,
            event_id: event.eventId,
            timestamp: event.timestamp,
            descriptor,
            type: event.type,
          }
        : {
            call_id: callId,
            controllable: c.name,
            request: event.request,
            event_id: event.eventId,
            timestamp: event.timestamp,
            descriptor,
            type: event.type,
            answer: event.answer,
          }
    return new Promise((resolve, reject) => {
      this.pending = { callId, pause, event, resolve, reject }
      this.wake()
    })
  }

  private settle(outcome: Outcome): void {
    if (this.outcome !== null || this.abort.signal.aborted) return
    this.outcome = outcome
    this.wake()
  }

  private wake(): void {
    const waiter = this.waiter
    if (waiter === null) return
    let step: RunStep
    if (this.pending !== null) {
      step = {
        run_id: this.id,
        events: this.buffer.splice(0),
        status: 'paused',
        pause: this.pending.pause,
        error: null,
        evaluation: null,
        evaluation_error: null,
      }
    } else if (this.outcome !== null) {
      const error = this.outcome.status === 'failed' ? this.outcome.error : null
      step = {
        run_id: this.id,
        events: this.buffer.splice(0),
        status: this.outcome.status,
        pause: null,
        error,
        evaluation: null,
        evaluation_error: null,
      }
    } else {
      return
    }
    this.waiter = null
    waiter(step)
  }
}
