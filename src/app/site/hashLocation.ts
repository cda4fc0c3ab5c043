/**
 * The static viewer's addresses live in the hash, query included
 * (`index.html#/<experiment>/<task>/<run>/<step>?src=site:…`): a page opened
 * from file:// or from any static host has one real file, so everything after
 * it must be the fragment, which no server ever sees and a reload keeps.
 * wouter's own hash hook puts the query into the real URL's search instead.
 */
import { useSyncExternalStore } from 'react'
import type { BaseLocationHook } from 'wouter'

const subscribe = (callback: () => void) => {
  addEventListener('hashchange', callback)
  return () => removeEventListener('hashchange', callback)
}

function split(): [string, string] {
  const hash = location.hash.replace(/^#/, '')
  const q = hash.indexOf('?')
  const path = q < 0 ? hash : hash.slice(0, q)
  return [path.startsWith('/') ? path : `/${path}`, q < 0 ? '' : hash.slice(q + 1)]
}

const currentPath = () => split()[0]
const currentSearch = () => split()[1]

export function navigate(to: string, { replace = false }: { replace?: boolean } = {}): void {
  const hash = `#${to.startsWith('/') ? to : `/${to}`}`
  if (hash === location.hash) return
  const oldURL = location.href
  if (replace) history.replaceState(history.state, '', hash)
  else history.pushState(history.state, '', hash)
  dispatchEvent(new HashChangeEvent('hashchange', { oldURL, newURL: location.href }))
}

export const useHashSearchLocation: BaseLocationHook = () => [useSyncExternalStore(subscribe, currentPath), navigate]

export const useHashSearch = () => useSyncExternalStore(subscribe, currentSearch)

/** Links carry the hash, so they open in a new tab and copy as the very place. */
export const hashHref = (href: string) => `#${href}`
