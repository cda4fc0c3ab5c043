import { isControllableEvent, surfaceName, type PersistedItemLike } from './items'

/**
 * Each item's security domain by name. Events carry their own; a response is
 * persisted without one (superred derives it from its event), so it takes the
 * domain of the event it answers: the latest unanswered controllable event on
 * the same controllable. The recorder writes "event, then response", so this
 * is the adjacent event unless the target ran branches concurrently.
 */
export interface ResolvedDomains {
  /** Domain name per item, null when unknown. */
  readonly domains: readonly (string | null)[]
  /** Index of the event a response answers, -1 for events and unpaired responses. */
  readonly eventOf: Int32Array
}

export function resolveDomains(items: readonly PersistedItemLike[]): ResolvedDomains {
  const domains: (string | null)[] = new Array(items.length)
  const eventOf = new Int32Array(items.length).fill(-1)
  const pending = new Map<string, number[]>()
  for (let i = 0; i < items.length; i++) {
    const item = items[i]
    if (item.kind === 'event') {
      domains[i] = item.security_domain ?? item.controllable?.security_domain ?? item.observable?.security_domain ?? null
      const name = isControllableEvent(item) ? surfaceName(item) : null
      if (name !== null) {
        const stack = pending.get(name)
        if (stack) stack.push(i)
        else pending.set(name, [i])
      }
      continue
    }
    const name = surfaceName(item)
    const event = name === null ? undefined : pending.get(name)?.pop()
    if (event === undefined) {
      domains[i] = null
    } else {
      eventOf[i] = event
      domains[i] = domains[event]
    }
  }
  return { domains, eventOf }
}
