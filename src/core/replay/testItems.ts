/** Small builders of persisted trajectory items, for this folder's tests only. */
import type { PersistedEventLike, PersistedItemLike, PersistedResponseLike } from './items'

let n = 0
const id = () => `ev-${++n}`

export const pre = (name: string, domain: string, request = 'req'): PersistedEventLike & { request: string } => ({
  kind: 'event',
  type: 'ControllablePreCallEvent',
  event_id: id(),
  security_domain: domain,
  controllable: { name, security_domain: domain },
  request,
})
export const post = (name: string, domain: string, answer = 'ans'): PersistedEventLike & { answer: string } => ({
  kind: 'event',
  type: 'ControllablePostCallEvent',
  event_id: id(),
  security_domain: domain,
  controllable: { name, security_domain: domain },
  answer,
})
export const obs = (name: string, domain: string, content: unknown = 'x'): PersistedEventLike & { content: unknown } => ({
  kind: 'event',
  type: 'ObservableEvent',
  event_id: id(),
  security_domain: domain,
  observable: { name, security_domain: domain },
  content,
})
export const inj = (name: string, value = 'INJ'): PersistedResponseLike & { value: string } => ({
  kind: 'response',
  type: 'ControllableInjection',
  controllable: name,
  value,
})
export const noInj = (name: string, by: 'scope' | 'optimizer'): PersistedResponseLike => ({
  kind: 'response',
  type: 'ControllableNoInjection',
  controllable: name,
  declined_by: by,
})
export const end = (domain: string): PersistedItemLike => ({ kind: 'event', type: 'RunEndEvent', event_id: id(), security_domain: domain })
