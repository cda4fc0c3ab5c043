/**
 * The engine's surfaces, events and trajectory items as Optimizer-over-HTTP
 * JSON. Tags travel by name; `TagLedger` remembers which names the session
 * already sent, so each message carries only the tags it names first (with
 * their ancestors, ancestors first), and the server builds each tag once.
 */
import type {
  ControllableEvent,
  Controllable,
  Event,
  EvaluationResult,
  ObservableValue,
  Observable,
  Score,
  TrajectoryItem,
} from '../../core/engine'
import type { SecurityDomainTag } from '../../core/tags'
import type { EvaluationWire, ManifestTag } from '../schemas'
import type { ControllableWire, ObservableWire, OptimizerEventWire, TrajectoryItemWire } from './schemas'

/** The tags a session has named, and those named since the last `take()`. */
export class TagLedger {
  private readonly sent = new Set<string>()
  private pending: ManifestTag[] = []

  /** The tag's name, noting it (and its ancestors) for the next message when new. */
  name(tag: SecurityDomainTag | null): string {
    if (tag === null) throw new Error('an item without a security domain cannot be sent to an optimizer (superred records none)')
    if (!this.sent.has(tag.name)) {
      const chain: SecurityDomainTag[] = []
      for (let t: SecurityDomainTag | null = tag; t !== null && !this.sent.has(t.name); t = t.parent) chain.push(t)
      for (const t of chain.reverse()) {
        this.sent.add(t.name)
        this.pending.push({ name: t.name, parent: t.parent?.name ?? null, description: '' })
      }
    }
    return tag.name
  }

  /** The tags first named since the last call, ancestors first. */
  take(): ManifestTag[] {
    const out = this.pending
    this.pending = []
    return out
  }
}

export function controllableWire(c: Controllable, tags: TagLedger): ControllableWire {
  return { name: c.name, security_domain: tags.name(c.securityDomain), description: c.description, value_type: c.valueType }
}

export function observableWire(o: Observable, tags: TagLedger): ObservableWire {
  return { name: o.name, security_domain: tags.name(o.securityDomain), description: o.description, observable_type: o.observableType }
}

export function offeredObservableWire(v: ObservableValue, tags: TagLedger): ObservableWire & { content: unknown } {
  return { ...observableWire(v.observable, tags), content: v.content ?? null }
}

function scoreWire(s: Score, tags: TagLedger) {
  return { name: s.name, value: s.value, security_domain: s.securityDomain === null ? null : tags.name(s.securityDomain) }
}

export function evaluationWire(e: EvaluationResult, tags: TagLedger): EvaluationWire {
  const sub: EvaluationWire['sub_scores'] = {}
  for (const [key, s] of Object.entries(e.subScores)) sub[key] = scoreWire(s, tags)
  return { success: e.success, primary_score: scoreWire(e.primaryScore, tags), sub_scores: sub, rationale: e.rationale }
}

function controllableEventWire(event: ControllableEvent, tags: TagLedger): TrajectoryItemWire & OptimizerEventWire {
  const base = {
    event_id: event.eventId,
    timestamp: event.timestamp,
    security_domain: tags.name(event.securityDomain),
    controllable: controllableWire(event.controllable, tags),
    request: event.request,
  }
  return event.type === 'ControllablePreCallEvent'
    ? { type: 'ControllablePreCallEvent', ...base }
    : { type: 'ControllablePostCallEvent', ...base, answer: event.answer }
}

/** An event the optimizer answers (never an observation). */
export function eventWire(event: Event, tags: TagLedger): OptimizerEventWire {
  switch (event.type) {
    case 'RunStartEvent':
      return { type: 'RunStartEvent', event_id: event.eventId, timestamp: event.timestamp }
    case 'ControllablePreCallEvent':
    case 'ControllablePostCallEvent':
      return controllableEventWire(event, tags)
    case 'RunEndEvent':
      return {
        type: 'RunEndEvent',
        event_id: event.eventId,
        timestamp: event.timestamp,
        security_domain: tags.name(event.securityDomain),
        evaluation: event.evaluation === null ? null : evaluationWire(event.evaluation, tags),
      }
    case 'ObservableEvent':
      throw new Error('an ObservableEvent is never sent to an optimizer: it travels on the view')
  }
}

/** One item of a run's view. A RunEnd's response and the RunStart's are never on it (superred records neither). */
export function itemWire(item: TrajectoryItem, tags: TagLedger): TrajectoryItemWire {
  switch (item.type) {
    case 'ObservableEvent':
      return {
        type: 'ObservableEvent',
        event_id: item.eventId,
        timestamp: item.timestamp,
        security_domain: tags.name(item.securityDomain),
        observable: observableWire(item.observable, tags),
        content: item.content ?? null,
      }
    case 'ControllablePreCallEvent':
    case 'ControllablePostCallEvent':
      return controllableEventWire(item, tags)
    case 'RunEndEvent':
      return eventWire(item, tags) as TrajectoryItemWire
    case 'ControllableInjection':
      return { type: 'ControllableInjection', event_id: item.event.eventId, value: item.value }
    case 'ControllableNoInjection':
      return { type: 'ControllableNoInjection', event_id: item.event.eventId, declined_by: item.declinedBy }
    case 'RunStartEvent':
    case 'EventResponse':
    case 'RunEndResponse':
      throw new Error(`a ${item.type} is never on a run's view`)
  }
}
