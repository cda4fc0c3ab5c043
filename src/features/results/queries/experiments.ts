import { queryOptions, skipToken } from '@tanstack/react-query'
import { listExperiments } from '../../../core/results'
import { isLiveSource, LIVE_REFRESH_MS, type OpenSource } from '../sourcesStore'
import { resultsKeys } from '../../../queries/resultsKeys'

/** experiments.json (or each folder's manifest when the index is missing). */
export function experimentsQuery(source: OpenSource | undefined, sourceKey: string) {
  return queryOptions({
    queryKey: resultsKeys.experiments(sourceKey),
    // A folder being written (redscope view) is read again every second; a snapshot never.
    refetchInterval: isLiveSource(source) ? LIVE_REFRESH_MS : false,
    queryFn: source ? () => listExperiments(source.storage) : skipToken,
  })
}
