import { QueryClient } from '@tanstack/react-query'

/** The run console's server data: manifests, shipped claims, this browser's results and sweeps. */
export const runQueryClient = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false, retry: false } } })

export const runKeys = {
  manifest: (url: string, tokenSet: boolean) => ['run', 'manifest', url, tokenSet] as const,
  claimsIndex: ['run', 'claims-index'] as const,
  claim: (file: string) => ['run', 'claim', file] as const,
  results: ['run', 'results'] as const,
  experiments: ['run', 'results', 'experiments'] as const,
  tasks: (dir: string) => ['run', 'results', 'tasks', dir] as const,
  sweeps: ['run', 'results', 'sweeps'] as const,
  sweep: (id: string) => ['run', 'results', 'sweep', id] as const,
}

const listeners = new Set<() => void>()

/** Others who cache this browser's results (the viewer) ask to hear when a run changed them. */
export function onResultsChanged(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** After a run: everything read from this browser's results is stale. */
export function invalidateResults(): void {
  void runQueryClient.invalidateQueries({ queryKey: runKeys.results })
  for (const l of listeners) l()
}
