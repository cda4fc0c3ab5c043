import { useLiveStore } from '../liveStore'
import { HumanPanel } from './HumanPanel'
import { LaneList } from './LaneList'
import { Overview } from './Overview'

/** The run in progress (or the last one): totals, the human attacker's turn, one lane per threat model. */
export function Dashboard({ kind }: { kind: 'single' | 'sweep' | 'any' }) {
  const session = useLiveStore((s) => s.session)
  if (session === null || (kind !== 'any' && session.kind !== kind)) return null
  return (
    <div className="rc-dashboard">
      <Overview session={session} />
      <HumanPanel />
      <LaneList session={session} />
    </div>
  )
}
