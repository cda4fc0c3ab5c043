import { create } from 'zustand'
import type { Storage } from '../../core/results'

/**
 * The results sources opened in this page. A source is addressed by a key
 * that goes into the URL (`?src=`): `url:<base>` can be reopened from a link
 * alone; `folder:<name>` and `zip:<name>` need the user to pick the files
 * again in a fresh browser, and the link says which.
 */
export type SourceKind = 'folder' | 'zip' | 'url' | 'idb'

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
    remove: (key) => set((s) => {
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
  const m = /^(folder|zip|url|idb):(.*)$/s.exec(key)
  return m ? { kind: m[1] as SourceKind, name: m[2] } : null
}
