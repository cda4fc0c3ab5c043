/**
 * An Optimizer-over-HTTP server's list of optimizers (`GET /optimizers`: each with its kwargs schema and the model
 * it calls), through the protocol client (zod at the edge) and the page's explaining fetch, so a refused origin
 * says how to allow it. The token is sent, never kept in the key; `attempt` is bumped by each "List optimizers"
 * click, so a retry really asks again.
 */
import { queryOptions, skipToken } from '@tanstack/react-query'
import { readOptimizerManifest } from '../protocol/optimizer'
import { pageFetch } from './targetManifest'

export const optimizerListQuery = (url: string | null, token = '', attempt = 0) =>
  queryOptions({
    queryKey: ['optimizer-list', url ?? '', token !== '', attempt] as const,
    queryFn:
      url === null ? skipToken : async () => (await readOptimizerManifest(url, { fetch: pageFetch, token: token || undefined })).manifest,
    staleTime: 30_000,
  })
