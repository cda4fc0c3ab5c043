import { queryOptions, skipToken } from '@tanstack/react-query'
import { listExperiments } from '../../../core/results'
import type { OpenSource } from '../sourcesStore'
import { resultsKeys } from './keys'

/** experiments.json (or each folder's manifest when the index is missing). */
export function experimentsQuery(source: OpenSource | undefined, sourceKey: string) {
  return queryOptions({
    queryKey: resultsKeys.experiments(sourceKey),
    queryFn: source ? () => listExperiments(source.storage) : skipToken,
  })
}
