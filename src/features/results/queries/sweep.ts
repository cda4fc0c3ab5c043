import { queryOptions, skipToken } from '@tanstack/react-query'
import { FRONTIER_FILE, FrontierFileSchema } from '../../../core/frontier'
import { readOptional } from '../../../core/results'
import { SWEEP_FILE, SweepRecordSchema, type SweepRecord } from '../../../core/sweep'
import { listSweeps } from '../../../lib/sweepRecords'
import { listFrontiers, readFrontier } from '../../../lib/frontierRecords'
import { readSweepManifests } from '../../../core/sweep'
import type { OpenSource } from '../sourcesStore'
import { resultsKeys } from '../../../queries/resultsKeys'

/** The tree's sweep.json (a sweep's zip, or a tree merged by `redscope merge`), or null for a plain results tree. */
export function sweepRecordQuery(source: OpenSource | undefined, sourceKey: string) {
  return queryOptions({
    queryKey: resultsKeys.sweep(sourceKey),
    queryFn: source ? () => readOptional(source.storage, SWEEP_FILE, SweepRecordSchema) : skipToken,
  })
}

/** The tree's frontier.json (`redscope frontier --out`, or merged), or null: a sweep painted beside it shows the frontier's view. */
export function frontierFileQuery(source: OpenSource | undefined, sourceKey: string) {
  return queryOptions({
    queryKey: [...resultsKeys.sweep(sourceKey), 'frontier'],
    queryFn: source ? () => readOptional(source.storage, FRONTIER_FILE, FrontierFileSchema) : skipToken,
  })
}

/** Every listed experiment's manifest.json: the grid's cells and each model's outcome. */
export function sweepManifestsQuery(source: OpenSource, sourceKey: string, record: SweepRecord | null | undefined) {
  return queryOptions({
    // Until sweep.json is read (a link opened cold) there is no record to key by, and nothing to read.
    queryKey: [...resultsKeys.sweepManifests(sourceKey), record?.id ?? null],
    queryFn: record ? () => readSweepManifests(source.storage, record) : skipToken,
  })
}

/**
 * The sweeps run in this browser (their records live in their own database,
 * beside the runs), newest first. Keyed under the runs' source, so a run that
 * invalidates this browser's runs refreshes them too.
 */
export function browserSweepsQuery(sourceKey: string) {
  return queryOptions({ queryKey: resultsKeys.browserSweeps(sourceKey), queryFn: listSweeps })
}

/** The frontier searches run in this browser, newest first; keyed under the runs' source like the sweeps. */
export function browserFrontiersQuery(sourceKey: string) {
  return queryOptions({ queryKey: resultsKeys.browserFrontiers(sourceKey), queryFn: listFrontiers })
}

/** One kept frontier search of this browser, by its id. */
export function browserFrontierQuery(sourceKey: string, id: string) {
  return queryOptions({ queryKey: [...resultsKeys.browserFrontiers(sourceKey), id], queryFn: () => readFrontier(id) })
}
