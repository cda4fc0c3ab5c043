import { queryOptions, skipToken } from '@tanstack/react-query'
import { readExperiment } from '../../../core/results'
import { isLiveSource, LIVE_REFRESH_MS, type OpenSource } from '../sourcesStore'
import { resultsKeys } from '../../../queries/resultsKeys'

/** An experiment's manifest (its task list), result.json and, when redscope wrote it, domain.json. */
export function experimentQuery(source: OpenSource | undefined, sourceKey: string, dir: string) {
  return queryOptions({
    queryKey: resultsKeys.experiment(sourceKey, dir),
    // A folder being written (redscope view) is read again every second; a snapshot never.
    refetchInterval: isLiveSource(source) ? LIVE_REFRESH_MS : false,
    queryFn: source ? () => readExperiment(source.storage, dir) : skipToken,
  })
}
