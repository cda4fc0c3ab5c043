/** A sweep's grid rows from the live run, while it runs; and its manifests, read back after it. */
import { queryOptions } from '@tanstack/react-query'
import { readSweepManifests, type SweepRow } from '../../../core/sweep'
import { resultsStorage } from '../../../lib/browserResults'
import type { SweepRecord } from '../../../core/sweep'
import { laneTotals } from '../live/liveSelectors'
import type { RunSession } from '../live/liveTypes'
import { runKeys } from '../../../queries/runKeys'

export function rowsFromLive(record: SweepRecord, session: RunSession): SweepRow[] {
  return record.models.map((m) => {
    const lane = session.lanes[m.dir]
    if (!lane) return { ...m, state: 'missing', cells: [], nTasks: 0, nSuccess: 0, nCompleted: 0 }
    const t = laneTotals(lane)
    const cells = [
      ...lane.finished.map((f) => ({ index: f.index, status: f.status, error: f.error })),
      ...Object.values(lane.running).map((r) => ({ index: r.index, status: 'running' })),
    ].sort((a, b) => a.index - b.index)
    const state =
      lane.status === 'queued' ? 'queued' : lane.status === 'running' ? 'running' : lane.status === 'done' ? 'complete' : 'incomplete'
    return { ...m, state, cells, nTasks: lane.info.nTasks, nSuccess: t.successes, nCompleted: t.completed }
  })
}

export const sweepManifestsQuery = (record: SweepRecord) =>
  queryOptions({
    queryKey: [...runKeys.sweep(record.id), 'manifests'],
    queryFn: () => readSweepManifests(resultsStorage(), record),
  })
