import { queryOptions } from '@tanstack/react-query'
import { servedResultsLabel } from '../../../adapters/storage/servedStorage'
import { listExperiments } from '../../../core/results'
import { sourceFromIndexedDb, sourceFromServed } from '../sources/openSource'
import type { OpenSource } from '../sourcesStore'

/**
 * Where the Results tab opens when the address names no source: the folder
 * `redscope view` serves, else this browser's runs if it has any, else
 * nowhere (the page offers the ways to open results). Asked again each time
 * the tab opens without a source: runs made since then count.
 */
export function landingSourceQuery() {
  return queryOptions({
    queryKey: ['results', 'landing'] as const,
    staleTime: 0,
    queryFn: async (): Promise<OpenSource | null> => {
      const served = await servedResultsLabel()
      if (served !== null) return sourceFromServed(served)
      const own = sourceFromIndexedDb()
      try {
        return (await listExperiments(own.storage)).length > 0 ? own : null
      } catch {
        // An unreadable IndexedDB (private mode, a blocked upgrade) is not a reason to hide the picker.
        return null
      }
    },
  })
}
