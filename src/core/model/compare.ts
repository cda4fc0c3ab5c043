/**
 * Two threat models over one forest, side by side: which grants differ, and
 * which tags end up writable, visible or hidden differently because of it.
 */
import { accessIn, type Access, type DesignTag, type ScopePair, type TagId } from './doc'
import { coverage, type Effective } from './coverage'

export interface GrantDiff {
  id: TagId
  name: string
  a: Access
  b: Access
}

export interface EffectDiff {
  id: TagId
  name: string
  a: Effective
  b: Effective
}

export interface ThreatModelDiff {
  grants: GrantDiff[]
  effects: EffectDiff[]
}

export function compareThreatModels(tags: readonly DesignTag[], a: ScopePair, b: ScopePair): ThreatModelDiff {
  const ca = coverage(tags, a)
  const cb = coverage(tags, b)
  const grants: GrantDiff[] = []
  const effects: EffectDiff[] = []
  for (const t of tags) {
    const ga = accessIn(a, t.id)
    const gb = accessIn(b, t.id)
    if (ga !== gb) grants.push({ id: t.id, name: t.name, a: ga, b: gb })
    const ea = ca.get(t.id)!.effective
    const eb = cb.get(t.id)!.effective
    if (ea !== eb) effects.push({ id: t.id, name: t.name, a: ea, b: eb })
  }
  return { grants, effects }
}
