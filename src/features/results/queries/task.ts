import { queryOptions, skipToken } from '@tanstack/react-query'
import { readTask } from '../../../core/results'
import { isLiveSource, LIVE_REFRESH_MS, type OpenSource } from '../sourcesStore'
import { resultsKeys } from '../../../queries/resultsKeys'

/** task.json, iterations.json and (redscope extra) attacker.json of one task folder. */
export function taskQuery(source: OpenSource | undefined, sourceKey: string, taskDir: string) {
  return queryOptions({
    queryKey: resultsKeys.task(sourceKey, taskDir),
    // A folder being written (redscope view) is read again every second; a snapshot never.
    refetchInterval: isLiveSource(source) ? LIVE_REFRESH_MS : false,
    queryFn: source ? () => readTask(source.storage, taskDir) : skipToken,
  })
}
