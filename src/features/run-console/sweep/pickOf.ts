import type { SweepPick } from '../../../core/sweep'
import type { SweepSetup } from '../setup/setupTypes'

/** The sweep form as the engine's pick ('saved' is not a pick of combinations: the page lists those models itself). */
export function pickOf(sweep: SweepSetup): SweepPick {
  if (sweep.mode === 'tag') return { kind: 'tag', tag: sweep.tag }
  if (sweep.mode === 'pick') return { kind: 'indices', indices: sweep.picked.map((i) => BigInt(i)) }
  return { kind: 'all' }
}
