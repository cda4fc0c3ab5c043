/**
 * Events and responses: one discriminated union on `type`, whose values are
 * the reference's class names (they are also the persisted `type` field).
 */
import type { SecurityDomainTag } from '../tags'
import { newEventId, type EventId } from './ids'
import { localNaiveIso } from './time'
import type { Controllable, DeclinedBy, EvaluationResult, Observable } from './types'

interface EventBase {
  readonly eventId: EventId
  /** Local naive ISO time, as the reference's `datetime.now()`. */
  readonly timestamp: string
  /** Null only on lifecycle events that are never recorded (RunStartEvent). */
  readonly securityDomain: SecurityDomainTag | null
}

/** One-way observation: emitted onto the trajectory, never sent to the optimizer. */
export interface ObservableEvent extends EventBase {
  readonly type: 'ObservableEvent'
  readonly observable: Observable
  readonly content: unknown
}

export interface ControllablePreCallEvent extends EventBase {
  readonly type: 'ControllablePreCallEvent'
  readonly controllable: Controllable
  readonly request: string
}

export interface ControllablePostCallEvent extends EventBase {
  readonly type: 'ControllablePostCallEvent'
  readonly controllable: Controllable
  readonly request: string
  readonly answer: string
}

export interface RunStartEvent extends EventBase {
  readonly type: 'RunStartEvent'
  /** The optimizer's (filtered) view of the run that starts. */
  readonly trajectory: ReadableTrajectory
}

export interface RunEndEvent extends EventBase {
  readonly type: 'RunEndEvent'
  /** The scope-filtered evaluation, or null with include_feedback=false. */
  readonly evaluation: EvaluationResult | null
}

export type ControllableEvent = ControllablePreCallEvent | ControllablePostCallEvent
export type Event = ObservableEvent | ControllableEvent | RunStartEvent | RunEndEvent
export type EventType = Event['type']

/** The plain `EventResponse` (the usual answer to a RunStartEvent). */
export interface PlainResponse {
  readonly type: 'EventResponse'
  readonly event: Event
}

export interface ControllableInjection {
  readonly type: 'ControllableInjection'
  readonly event: Event
  readonly controllable: Controllable
  readonly value: string
}

/** "scope": the framework declined without asking the optimizer; "optimizer": it was asked and passed. */
export interface ControllableNoInjection {
  readonly type: 'ControllableNoInjection'
  readonly event: Event
  readonly controllable: Controllable
  readonly declinedBy: DeclinedBy
  /**
   * redscope extra, not persisted on the trajectory: the optimizer declined because its turn limit was reached
   * (not by its own choice), so the run's record can say it ended by the limit (see RunEnding).
   */
  readonly atTurnLimit?: boolean
}

export interface RunEndResponse {
  readonly type: 'RunEndResponse'
  readonly event: Event
  readonly done: boolean
}

export type ControllableResponse = ControllableInjection | ControllableNoInjection
export type EventResponse = PlainResponse | ControllableResponse | RunEndResponse
export type ResponseType = EventResponse['type']

/** What a trajectory holds: events and responses, in emit order. */
export type TrajectoryItem = Event | EventResponse

/** Anything with the reference's two read methods (Trajectory, FilteredTrajectory). */
export interface ReadableTrajectory {
  /** Every item so far; does not move the drain cursor. */
  snapshot(): readonly TrajectoryItem[]
  /** The items since the last drain. */
  drain(): readonly TrajectoryItem[]
}

/** The reference's `response_types`: null means any response is accepted. */
export const RESPONSE_TYPES: Readonly<Record<EventType, readonly ResponseType[] | null>> = {
  ObservableEvent: null,
  ControllablePreCallEvent: ['ControllableInjection', 'ControllableNoInjection'],
  ControllablePostCallEvent: ['ControllableInjection', 'ControllableNoInjection'],
  RunStartEvent: null,
  RunEndEvent: ['RunEndResponse'],
}

/**
 * RESPONSE_TYPES as a switch, for the check made at every event (a keyed
 * table and `includes` showed in a profile of the channel); events.test
 * holds it to the table.
 */
export function responseAllowed(event: Event, response: EventResponse): boolean {
  switch (event.type) {
    case 'ControllablePreCallEvent':
    case 'ControllablePostCallEvent':
      return response.type === 'ControllableInjection' || response.type === 'ControllableNoInjection'
    case 'RunEndEvent':
      return response.type === 'RunEndResponse'
    default:
      return true
  }
}

export function isResponse(item: TrajectoryItem): item is EventResponse {
  switch (item.type) {
    case 'EventResponse':
    case 'ControllableInjection':
    case 'ControllableNoInjection':
    case 'RunEndResponse':
      return true
    default:
      return false
  }
}

export function isEvent(item: TrajectoryItem): item is Event {
  return !isResponse(item)
}

/** An item's domain: an event's own, a response's from its event (superred `get_domain`). */
export function domainOf(item: TrajectoryItem): SecurityDomainTag | null {
  return isResponse(item) ? item.event.securityDomain : item.securityDomain
}

// ---------------------------------------------------------------------------
// Constructors. A domain left unset is derived from the controllable or
// observable, as the reference's __post_init__ does.

interface EventOptions {
  securityDomain?: SecurityDomainTag | null
  eventId?: EventId
  timestamp?: string
}

const NO_OPTIONS: EventOptions = Object.freeze({})

// Each constructor spells its object out whole, fields in one order: every
// event of a type then shares one shape, and no intermediate object is built.

export function observableEvent(obs: Observable, content: unknown, options: EventOptions = NO_OPTIONS): ObservableEvent {
  return Object.freeze({
    type: 'ObservableEvent',
    eventId: options.eventId ?? newEventId(),
    timestamp: options.timestamp ?? localNaiveIso(),
    securityDomain: options.securityDomain ?? obs.securityDomain,
    observable: obs,
    content,
  })
}

export function preCallEvent(c: Controllable, request: string, options: EventOptions = NO_OPTIONS): ControllablePreCallEvent {
  return Object.freeze({
    type: 'ControllablePreCallEvent',
    eventId: options.eventId ?? newEventId(),
    timestamp: options.timestamp ?? localNaiveIso(),
    securityDomain: options.securityDomain ?? c.securityDomain,
    controllable: c,
    request,
  })
}

export function postCallEvent(
  c: Controllable,
  request: string,
  answer: string,
  options: EventOptions = NO_OPTIONS,
): ControllablePostCallEvent {
  return Object.freeze({
    type: 'ControllablePostCallEvent',
    eventId: options.eventId ?? newEventId(),
    timestamp: options.timestamp ?? localNaiveIso(),
    securityDomain: options.securityDomain ?? c.securityDomain,
    controllable: c,
    request,
    answer,
  })
}

export function runStartEvent(trajectory: ReadableTrajectory, options: EventOptions = NO_OPTIONS): RunStartEvent {
  return Object.freeze({
    type: 'RunStartEvent',
    eventId: options.eventId ?? newEventId(),
    timestamp: options.timestamp ?? localNaiveIso(),
    securityDomain: options.securityDomain ?? null,
    trajectory,
  })
}

export function runEndEvent(evaluation: EvaluationResult | null, options: EventOptions = NO_OPTIONS): RunEndEvent {
  return Object.freeze({
    type: 'RunEndEvent',
    eventId: options.eventId ?? newEventId(),
    timestamp: options.timestamp ?? localNaiveIso(),
    securityDomain: options.securityDomain ?? null,
    evaluation,
  })
}

export function plainResponse(event: Event): PlainResponse {
  return Object.freeze({ type: 'EventResponse', event })
}

export function injection(event: ControllableEvent, value: string): ControllableInjection {
  return Object.freeze({ type: 'ControllableInjection', event, controllable: event.controllable, value })
}

export function noInjection(event: ControllableEvent, declinedBy: DeclinedBy = 'optimizer'): ControllableNoInjection {
  return Object.freeze({ type: 'ControllableNoInjection', event, controllable: event.controllable, declinedBy })
}

/** The optimizer's decline of a pause past its turn limit (recorded as any decline; the run's ending says why). */
export function turnLimitDecline(event: ControllableEvent): ControllableNoInjection {
  return Object.freeze({
    type: 'ControllableNoInjection',
    event,
    controllable: event.controllable,
    declinedBy: 'optimizer',
    atTurnLimit: true,
  })
}

export function runEndResponse(event: Event, done = false): RunEndResponse {
  return Object.freeze({ type: 'RunEndResponse', event, done })
}
