/**
 * "Test connection": a Target-over-HTTP server's manifest, through the
 * protocol client (zod at the edge) and the explaining fetch, so a refused
 * origin says how to allow it. The token is sent, never cached in the key.
 */
import { queryOptions, skipToken } from '@tanstack/react-query'
import { explainingFetch } from '../../../adapters/endpoint-targets/explainFetch'
import { connectHttpTarget } from '../../../protocol'
import { runKeys } from './queryClient'

export const pageFetch = explainingFetch()

/** `attempt` is bumped by each "Test connection" click, so a retry really asks again. */
export const manifestQuery = (url: string | null, token: string, attempt = 0) => queryOptions({
  queryKey: [...runKeys.manifest(url ?? '', token !== ''), attempt],
  queryFn: url === null ? skipToken : async () => (await connectHttpTarget(url, { fetch: pageFetch, token: token || undefined })).manifest,
  staleTime: 30_000,
})
