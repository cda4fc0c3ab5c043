import { create } from 'zustand'
import type { Storage } from '../../core/results'

/**
 * The results sources opened in this page. A source is addressed by a key
 * that goes into the URL (`?src=`): `url:<base>` can be reopened from a link
 * alone, as can `served:<name>` (the folder `redscope view` serves beside the app)
 * and `idb:<db>` (this browser's runs); `folder:<name>` and `zip:<name>` need the user to pick the files
 * again in a fresh browser, and the link says which. `site:<title>` is the one tree of a static bundle
 * (`redscope bundle`), opened by the bundle's page itself.
 */
export type SourceKind = 'folder' | 'zip' | 'url' | 'idb' | 'served' | 'site'

export interface OpenSource {
  readonly key: string
  readonly kind: SourceKind
  readonly label: string
  readonly storage: Storage
}

interface SourcesState {
  readonly sources: Readonly<Record<string, OpenSource>>
  readonly actions: {
    add(source: OpenSource): void
    remove(key: string): void
  }
}

export const useSourcesStore = create<SourcesState>()((set) => ({
  sources: {},
  actions: {
    add: (source) => set((s) => ({ sources: { ...s.sources, [source.key]: source } })),
    remove: (key) =>
      set((s) => {
        const next = { ...s.sources }
        delete next[key]
        return { sources: next }
      }),
  },
}))

export const useSource = (key: string | null) => useSourcesStore((s) => (key === null ? undefined : s.sources[key]))
export const useSourceActions = () => useSourcesStore((s) => s.actions)

export function sourceKey(kind: SourceKind, name: string): string {
  return `${kind}:${name}`
}

/** The kind and name of a key from a URL; null when it is not one of ours. */
export function parseSourceKey(key: string): { kind: SourceKind; name: string } | null {
  const m = /^(folder|zip|url|idb|served|site):(.*)$/s.exec(key)
  return m ? { kind: m[1] as SourceKind, name: m[2] } : null
}

/** Sources that change while they are watched (a folder being written): their queries poll. */
export const isLiveSource = (source: OpenSource | undefined) => source?.kind === 'served'

/**
 * This browser's own runs (IndexedDB): the one source whose trees exist
 * nowhere else, so the list offers them as zips and shows the sweeps run over them.
 */
export const isBrowserRuns = (source: OpenSource) => source.kind === 'idb'

/** How often a live source is read again: a task that lands shows within two seconds. */
export const LIVE_REFRESH_MS = 1000

/**
 * The static bundle's own tree, when this page is a bundle (src/app/site):
 * the Results pages land on it, resolve any address to it, and offer no other
 * source. Set once, before the first render.
 */
let siteSource: OpenSource | null = null

export function setSiteSource(source: OpenSource): void {
  siteSource = source
  useSourcesStore.getState().actions.add(source)
}

export const currentSiteSource = (): OpenSource | null => siteSource
