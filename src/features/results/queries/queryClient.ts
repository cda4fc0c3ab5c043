import { QueryClient } from '@tanstack/react-query'

/**
 * Results opened for viewing do not change under the viewer (a folder or zip
 * is a snapshot); a live `superred serve` is refetched when the user asks.
 */
export const resultsQueryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: Infinity, retry: false, refetchOnWindowFocus: false } },
})
