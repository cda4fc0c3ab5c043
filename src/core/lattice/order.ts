/**
 * The order on full threat models (scope and read_only): per tag, not granted
 * < read only < read & write, a grant covering the tag's subtree; a threat
 * model is below another when it grants at most as much on every tag. This is
 * the one definition behind the frontier search (on scope-only models it is
 * cover inclusion, see lattice.ts) and the sweep's "a wider one did worse".
 */
import { coverEquals, coverLeq, type Cover, type ThreatModelLattice } from './lattice'

export interface NamedModel {
  readonly scope: readonly string[]
  readonly readOnly: readonly string[]
}

export type Level = 'none' | 'read' | 'write'

/** What a threat model grants, as covers: writable tags, and visible ones (writable or read only). */
export interface Grants {
  readonly write: Cover
  readonly visible: Cover
}

export function grantsOf(lattice: ThreatModelLattice, m: NamedModel): Grants {
  const write = lattice.coverOfNames(m.scope)
  const visible = lattice.coverOfNames([...m.scope, ...m.readOnly])
  return { write, visible }
}

/** The level a threat model grants on one tag (by name). */
export function levelOf(lattice: ThreatModelLattice, g: Grants, tag: string): Level {
  const v = lattice.preorder.findIndex((t) => t.name === tag)
  if (v < 0) throw new RangeError(`"${tag}" is not a tag of this forest`)
  return lattice.has(g.write, v) ? 'write' : lattice.has(g.visible, v) ? 'read' : 'none'
}

/** a ≤ b: b grants at least a's level on every tag. */
export function grantsLeq(a: Grants, b: Grants): boolean {
  return coverLeq(a.write, b.write) && coverLeq(a.visible, b.visible)
}

export function grantsEqual(a: Grants, b: Grants): boolean {
  return coverEquals(a.write, b.write) && coverEquals(a.visible, b.visible)
}

/** How two threat models compare: 'below' means a grants strictly less than b. */
export function compareModels(a: Grants, b: Grants): 'equal' | 'below' | 'above' | 'incomparable' {
  const le = grantsLeq(a, b)
  const ge = grantsLeq(b, a)
  return le && ge ? 'equal' : le ? 'below' : ge ? 'above' : 'incomparable'
}
