import { queryOptions, skipToken } from '@tanstack/react-query'
import { readExperiment } from '../../../core/results'
import type { OpenSource } from '../sourcesStore'
import { resultsKeys } from './keys'

/** An experiment's manifest (its task list), result.json and, when redscope wrote it, domain.json. */
export function experimentQuery(source: OpenSource | undefined, sourceKey: string, dir: string) {
  return queryOptions({
    queryKey: resultsKeys.experiment(sourceKey, dir),
    queryFn: source ? () => readExperiment(source.storage, dir) : skipToken,
  })
}
