import { queryOptions, skipToken } from '@tanstack/react-query'
import { readTask } from '../../../core/results'
import type { OpenSource } from '../sourcesStore'
import { resultsKeys } from './keys'

/** task.json, iterations.json and (redscope extra) attacker.json of one task folder. */
export function taskQuery(source: OpenSource | undefined, sourceKey: string, taskDir: string) {
  return queryOptions({
    queryKey: resultsKeys.task(sourceKey, taskDir),
    queryFn: source ? () => readTask(source.storage, taskDir) : skipToken,
  })
}
