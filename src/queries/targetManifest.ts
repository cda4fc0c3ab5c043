/**
 * A target's manifest: its forest, controllables and observables, for the
 * designer and the run console alike. From a Target-over-HTTP server
 * (`GET {url}/manifest` through the protocol client, cached by TanStack Query,
 * never copied into a store) or from a file the user picked (kept in the
 * workspace as read). Parsed with the protocol's zod schema; every failure
 * names the endpoint or the field.
 */
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { explainingFetch } from '../adapters/endpoint-targets/explainFetch'
import { formatPath } from '../core/tags'
import { connectHttpTarget } from '../protocol'
import { ManifestSchema, type Manifest } from '../protocol/schemas'
import { useWorkspace } from '../stores/workspaceStore'
import type { TargetRef } from '../stores/workspaceTypes'
import { memoizeOne } from '../stores/memo'

export class ManifestError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ManifestError'
  }
}

export function parseManifest(json: unknown, source: string): Manifest {
  const r = ManifestSchema.safeParse(json)
  if (!r.success) {
    const issues = r.error.issues
      .slice(0, 3)
      .map((i) => `${formatPath(i.path)}: ${i.message}`)
      .join('; ')
    throw new ManifestError(`${source} is not a target manifest: ${issues}`)
  }
  return r.data
}

/** The base URL of a target, checked: http or https only, no trailing slash. */
export function targetBaseUrl(input: string): string {
  let url: URL
  try {
    url = new URL(input.trim())
  } catch {
    throw new ManifestError(`"${input}" is not a URL (expected something like http://127.0.0.1:8765)`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ManifestError(`${url.protocol} URLs are not supported: use http or https`)
  return url.href.replace(/\/+$/, '')
}

/** The page's fetch for targets: a refused origin or a dead address is explained, not just "failed to fetch". */
export const pageFetch = explainingFetch()

/**
 * A Target-over-HTTP server's manifest, through the protocol client (zod at
 * the edge, every failure naming the endpoint). The token is sent, never
 * kept in the key; `attempt` is bumped by each "Test connection" click, so a
 * retry really asks again.
 */
export const targetManifestQuery = (url: string | null, token = '', attempt = 0) =>
  queryOptions({
    queryKey: ['target-manifest', url ?? '', token !== '', attempt] as const,
    queryFn:
      url === null ? skipToken : async () => (await connectHttpTarget(url, { fetch: pageFetch, token: token || undefined })).manifest,
    staleTime: 30_000,
  })

const parseFileManifest = memoizeOne((target: TargetRef): { manifest: Manifest | null; error: string | null } => {
  if (target?.kind !== 'file') return { manifest: null, error: null }
  try {
    return { manifest: parseManifest(target.manifest, target.fileName), error: null }
  } catch (e) {
    return { manifest: null, error: (e as Error).message }
  }
})

export interface TargetManifestState {
  source: string | null
  manifest: Manifest | null
  error: string | null
  loading: boolean
}

/** The connected target's manifest, whichever way it was connected. */
export function useTargetManifest(): TargetManifestState {
  const target = useWorkspace((s) => s.target)
  const url = target?.kind === 'url' ? target.url : null
  const q = useQuery(targetManifestQuery(url))
  if (target === null) return { source: null, manifest: null, error: null, loading: false }
  if (target.kind === 'file') {
    return { source: target.fileName, ...parseFileManifest(target), loading: false }
  }
  return { source: target.url, manifest: q.data ?? null, error: q.error ? q.error.message : null, loading: q.isPending }
}
