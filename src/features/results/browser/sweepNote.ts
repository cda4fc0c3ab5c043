import type { SweepRecord } from '../../../core/sweep'
import { plural } from '../../../lib/plural'

/** Where the record came from: one run, or the shards merged into it (and any still missing). */
export function shardNote(record: SweepRecord): string | null {
  const shards = record.plan?.shards
  if (!shards || shards.count === 1) return null
  const missing = shards.count - shards.indices.length
  return (
    `Merged from ${shards.indices.length} of ${plural(shards.count, 'shard')}` +
    (missing > 0
      ? `: shard${missing === 1 ? '' : 's'} ${Array.from({ length: shards.count }, (_, i) => i)
          .filter((i) => !shards.indices.includes(i))
          .join(', ')} missing`
      : '')
  )
}
