import { queryOptions } from '@tanstack/react-query'
import { compareStorages } from '../../../core/compare'
import { resultsKeys } from '../../../queries/resultsKeys'
import type { OpenSource } from '../sourcesStore'

/** BASE and HEAD read whole and compared (src/core/compare, as `redscope compare` does), with the forest to paint. */
export function compareQuery(base: OpenSource, head: OpenSource) {
  return queryOptions({
    queryKey: resultsKeys.compare(base.key, head.key),
    queryFn: () => compareStorages({ storage: base.storage, label: base.label }, { storage: head.storage, label: head.label }),
    // A refused pair is said at once, not after retries: the files will not change by themselves.
    retry: false,
  })
}
