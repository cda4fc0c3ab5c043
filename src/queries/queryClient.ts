import { QueryClient } from '@tanstack/react-query'
import { RESULTS_DB } from '../lib/browserResults'
import { resultsKeys } from './resultsKeys'
import { runKeys } from './runKeys'

/**
 * The app's one query client: every piece of server data (target manifests,
 * shipped claims, results trees, this browser's runs and sweeps) lives in its
 * cache, never in a zustand store. Nothing is retried: a refused target or a
 * damaged file says so at once.
 */
export const queryClient = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false, retry: false } } })

// Results opened for viewing do not change under the viewer (a folder or zip is a snapshot); a live source is
// refetched when the user asks, and this browser's runs when a run lands (invalidateBrowserResults).
queryClient.setQueryDefaults(resultsKeys.all, { staleTime: Infinity })

/** After a run, a sweep or a frontier: everything read from this browser's results is stale, in every view. */
export function invalidateBrowserResults(): void {
  void queryClient.invalidateQueries({ queryKey: runKeys.results })
  void queryClient.invalidateQueries({ queryKey: resultsKeys.source(`idb:${RESULTS_DB}`) })
}
