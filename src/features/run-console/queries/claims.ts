/** The shipped claims (public/claims), fetched from the app's own origin and parsed with the claims schema. */
import { queryOptions } from '@tanstack/react-query'
import { z } from 'zod'
import { parseClaimFile } from '../../../claims'
import { runKeys } from '../../../queries/runKeys'

const ClaimsIndex = z.object({
  claims: z.array(
    z.object({ file: z.string(), name: z.string(), target: z.string().optional(), description: z.string().default(''), tasks: z.number() }),
  ),
})
export type ShippedClaim = z.infer<typeof ClaimsIndex>['claims'][number]

async function getText(path: string, signal: AbortSignal): Promise<string> {
  const res = await fetch(path, { signal })
  if (!res.ok) throw new Error(`GET ${path} answered ${res.status}`)
  return res.text()
}

export const claimsIndexQuery = () =>
  queryOptions({
    queryKey: runKeys.claimsIndex,
    queryFn: async ({ signal }) => {
      const parsed = ClaimsIndex.safeParse(JSON.parse(await getText('/claims/index.json', signal)))
      if (!parsed.success) throw new Error('/claims/index.json is not a list of claims')
      return parsed.data.claims
    },
    staleTime: Infinity,
  })

export const claimFileQuery = (file: string) =>
  queryOptions({
    queryKey: runKeys.claim(file),
    queryFn: async ({ signal }) => parseClaimFile(await getText(`/claims/${encodeURIComponent(file)}`, signal), file),
    staleTime: Infinity,
  })
