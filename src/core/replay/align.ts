import { resolveDomains, type ResolvedDomains } from './pairing'
import type { PersistedItemLike } from './items'

/**
 * Row-by-row alignment of the full trajectory with the attacker's view. Each
 * row holds an index into each side, or -1: a gap on the attacker side is an
 * item the attacker could not see; a gap on the full side would be an item
 * the attacker file has and the full trajectory lacks (a damaged tree), kept
 * rather than dropped so that nothing the attacker saw is hidden.
 * Typed arrays, because a run can hold 100,000 items.
 */
export interface Alignment {
  readonly rows: number
  readonly full: Int32Array
  readonly attacker: Int32Array
  /** Rows whose item exists only in the attacker's file. */
  readonly attackerOnly: number
}

/** The attacker view recomputed from coverage: the visible items, in order. */
export function alignByVisibility(visible: ArrayLike<number | boolean>): Alignment {
  const n = visible.length
  const full = new Int32Array(n)
  const attacker = new Int32Array(n)
  let k = 0
  for (let i = 0; i < n; i++) {
    full[i] = i
    attacker[i] = visible[i] ? k++ : -1
  }
  return { rows: n, full, attacker, attackerOnly: 0 }
}

/**
 * A stable identity for each item, shared by the full and the filtered file:
 * an event's id; for a response, its event's key plus its type. Items without
 * an id fall back to type, domain, surface and an ordinal among look-alikes.
 */
export function itemKeys(items: readonly PersistedItemLike[], resolved: ResolvedDomains = resolveDomains(items)): string[] {
  const keys: string[] = new Array(items.length)
  const seen = new Map<string, number>()
  for (let i = 0; i < items.length; i++) {
    const item = items[i]
    if (item.kind === 'event') {
      if (item.event_id) {
        keys[i] = `e:${item.event_id}`
        continue
      }
      const base = `e?:${item.type}|${resolved.domains[i] ?? ''}|${item.controllable?.name ?? item.observable?.name ?? ''}`
      const n = seen.get(base) ?? 0
      seen.set(base, n + 1)
      keys[i] = `${base}#${n}`
      continue
    }
    const ev = resolved.eventOf[i]
    if (ev >= 0) {
      keys[i] = `r:${keys[ev]}|${item.type}`
      continue
    }
    const base = `r?:${item.type}|${typeof item.controllable === 'string' ? item.controllable : (item.controllable?.name ?? '')}`
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    keys[i] = `${base}#${n}`
  }
  return keys
}

/** Aligns a full trajectory with the filtered one read from the attacker file (a subsequence, normally). */
export function alignWithAttackerFile(
  fullItems: readonly PersistedItemLike[],
  attackerItems: readonly PersistedItemLike[],
  fullKeys: readonly string[] = itemKeys(fullItems),
): Alignment {
  const attackerKeys = itemKeys(attackerItems)
  const where = new Map<string, number>()
  for (let j = attackerKeys.length - 1; j >= 0; j--) where.set(attackerKeys[j], j)
  const full: number[] = []
  const attacker: number[] = []
  let attackerOnly = 0
  let p = 0
  for (let i = 0; i < fullItems.length; i++) {
    const j = where.get(fullKeys[i])
    if (j !== undefined && j >= p) {
      for (; p < j; p++, attackerOnly++) {
        full.push(-1)
        attacker.push(p)
      }
      full.push(i)
      attacker.push(j)
      p = j + 1
    } else {
      full.push(i)
      attacker.push(-1)
    }
  }
  for (; p < attackerItems.length; p++, attackerOnly++) {
    full.push(-1)
    attacker.push(p)
  }
  return { rows: full.length, full: Int32Array.from(full), attacker: Int32Array.from(attacker), attackerOnly }
}
