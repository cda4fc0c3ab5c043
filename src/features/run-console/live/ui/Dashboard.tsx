import { useLiveStore } from '../liveStore'
import { HumanPanel } from './HumanPanel'
import { LaneList } from './LaneList'
import { Overview } from './Overview'

/** The run in progress (or the last one): totals, the human attacker's turn, one lane per threat model. */
export function Dashboard({ kind }: { kind: 'single' | 'sweep' | 'any' }) {
  const session = useLiveStore((s) => s.session)
  if (session === null || (kind !== 'any' && session.kind !== kind)) return null
  const live = session.state === 'running' || session.state === 'cancelling'
  return (
    <div className="rc-dashboard">
      <Overview session={session} />
      <HumanPanel />
      {/* Once a sweep is over its grid says the same in less room: the lanes fold away. */}
      {session.kind === 'sweep' && !live ? (
        <details className="rc-lanes-fold">
          <summary>{session.order.length} threat model lanes</summary>
          <LaneList session={session} />
        </details>
      ) : <LaneList session={session} />}
    </div>
  )
}
