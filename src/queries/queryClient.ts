import { QueryClient } from '@tanstack/react-query'

/** Server data (target manifests) lives here, never in a zustand store. */
export const queryClient = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false } } })
