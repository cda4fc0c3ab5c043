import { useVirtualizer } from '@tanstack/react-virtual'
import { useRef } from 'react'
import { laneOrder } from '../liveSelectors'
import type { RunSession } from '../liveTypes'
import { useNow } from '../useNow'
import { LaneCard } from './LaneCard'

/** Few lanes are drawn as they are; a sweep's hundreds are virtualized (only what is on screen exists). */
const PLAIN_LIMIT = 12

export function LaneList({ session }: { session: RunSession }) {
  const now = useNow(session.state === 'running' || session.state === 'cancelling')
  const order = laneOrder(session)
  if (order.length <= PLAIN_LIMIT) {
    return (
      <div className="rc-lanes">
        {order.map((k) => (
          <LaneCard key={k} lane={session.lanes[k]} now={now} limits={session.limits} />
        ))}
      </div>
    )
  }
  return <VirtualLanes session={session} order={order} now={now} />
}

function VirtualLanes({ session, order, now }: { session: RunSession; order: readonly string[]; now: number }) {
  const scrollRef = useRef<HTMLDivElement>(null)
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual is the project's virtualizer; the compiler cannot memoize it
  const virtualizer = useVirtualizer({
    count: order.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 96,
    overscan: 4,
    getItemKey: (i) => order[i],
  })
  return (
    <div ref={scrollRef} className="rc-lanes rc-lanes--virtual" aria-label={`${order.length} threat models`}>
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((v) => (
          <div
            key={v.key}
            data-index={v.index}
            ref={virtualizer.measureElement}
            style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${v.start}px)`, paddingBottom: 8 }}
          >
            <LaneCard lane={session.lanes[order[v.index]]} now={now} limits={session.limits} />
          </div>
        ))}
      </div>
    </div>
  )
}
