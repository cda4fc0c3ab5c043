/**
 * A target's manifest, the one piece of server data the designer needs: its
 * forest, controllables and observables. From a Target-over-HTTP server
 * (`GET {url}/manifest`, cached by TanStack Query, never copied into a store)
 * or from a file the user picked (kept in the workspace as read). Parsed with
 * the protocol's zod schema; every failure names the endpoint or the field.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { formatPath } from '../core/tags'
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
    const issues = r.error.issues.slice(0, 3).map((i) => `${formatPath(i.path)}: ${i.message}`).join('; ')
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
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ManifestError(`${url.protocol} URLs are not supported: use http or https`)
  return url.href.replace(/\/+$/, '')
}

export async function fetchManifest(baseUrl: string, signal?: AbortSignal): Promise<Manifest> {
  const endpoint = `${targetBaseUrl(baseUrl)}/manifest`
  let res: Response
  try {
    res = await fetch(endpoint, { signal, headers: { accept: 'application/json' } })
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e
    throw new ManifestError(`GET ${endpoint} failed: the target did not answer (is it running, and does it allow this page's origin?)`)
  }
  if (!res.ok) throw new ManifestError(`GET ${endpoint} answered ${res.status} ${res.statusText}`.trim())
  let json: unknown
  try {
    json = await res.json()
  } catch {
    throw new ManifestError(`GET ${endpoint} did not answer JSON`)
  }
  return parseManifest(json, `GET ${endpoint}`)
}

export const manifestQuery = (baseUrl: string) => queryOptions({
  queryKey: ['target-manifest', baseUrl],
  queryFn: ({ signal }) => fetchManifest(baseUrl, signal),
  retry: false,
  staleTime: 60_000,
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
  const q = useQuery({ ...manifestQuery(url ?? ''), enabled: url !== null })
  if (target === null) return { source: null, manifest: null, error: null, loading: false }
  if (target.kind === 'file') {
    return { source: target.fileName, ...parseFileManifest(target), loading: false }
  }
  return { source: target.url, manifest: q.data ?? null, error: q.error ? q.error.message : null, loading: q.isPending }
}
