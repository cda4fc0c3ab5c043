import type { CoverageModel } from './coverage'
import { isControllableEvent, type ItemMark, type PersistedItemLike } from './items'

/**
 * The legend mark of an item. Injections and declines come from the record
 * itself; "read-only" is a controllable the grant lets the attacker see but
 * not change (superred re-presents it as an observable, front 2), so it
 * depends on the coverage in use.
 */
export function markOf(item: PersistedItemLike, domain: string | null, coverage: CoverageModel): ItemMark {
  if (item.kind === 'response') {
    if (item.type === 'ControllableInjection') return 'injection'
    if (item.type === 'ControllableNoInjection') {
      if (item.declined_by === 'scope') return 'declined-scope'
      if (item.declined_by === 'optimizer') return 'declined-optimizer'
      // Schema 4 did not record who declined: outside write, only the framework can have.
      return coverage.isWritable(domain) ? 'declined-optimizer' : 'declined-scope'
    }
    return 'response'
  }
  if (item.type === 'RunEndEvent') return 'run-end'
  if (isControllableEvent(item)) {
    return coverage.isVisible(domain) && !coverage.isWritable(domain) ? 'read-only' : 'call'
  }
  return 'observation'
}

export const MARK_LABELS: Readonly<Record<ItemMark | 'hidden' | 'learned' | 'echo', string>> = {
  injection: 'injection (attacker wrote here)',
  'declined-scope': 'auto-declined: outside the scope',
  'declined-optimizer': 'declined by the optimizer',
  'read-only': 'read-only surface (seen, not writable)',
  'run-end': 'run end and evaluation',
  observation: 'observation',
  call: 'controllable call',
  response: 'response',
  hidden: 'hidden from the attacker (gap)',
  learned: "hidden during the run, learned at its end through the evaluation's feedback",
  echo: "echo: the attacker's own injection holds what the check matched",
}
