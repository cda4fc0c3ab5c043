import { useEffect, useRef } from 'react'
import { useLiveStore } from '../liveStore'
import { HumanPanel } from './HumanPanel'
import { LaneList } from './LaneList'
import { Overview } from './Overview'

/** The run in progress (or the last one): totals, the human attacker's turn, one lane per threat model. */
export function Dashboard({ kind }: { kind: 'single' | 'sweep' | 'any' }) {
  const session = useLiveStore((s) => s.session)
  const shown = session !== null && (kind === 'any' || session.kind === kind)
  const progress = useRef<HTMLDivElement>(null)
  // Once per run started, the progress comes into view: below the set-up (at 1280x720 it was under the fold), a
  // started run would otherwise look like nothing happened. Only then: the user's own scrolling is left alone.
  const started = shown && session.state === 'running' ? session.id : null
  useEffect(() => {
    if (started !== null) progress.current?.scrollIntoView({ block: 'nearest' })
  }, [started])
  if (!shown) return null
  const live = session.state === 'running' || session.state === 'cancelling'
  return (
    <div className="rc-dashboard">
      <div ref={progress} className="rc-dashboard__progress">
        <Overview session={session} />
      </div>
      <HumanPanel />
      {/* Once a sweep is over its grid says the same in less room: the lanes fold away. */}
      {session.kind === 'sweep' && !live ? (
        <details className="rc-lanes-fold">
          <summary>{session.order.length} threat model lanes</summary>
          <LaneList session={session} />
        </details>
      ) : (
        <LaneList session={session} />
      )}
    </div>
  )
}
