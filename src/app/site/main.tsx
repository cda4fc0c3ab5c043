/**
 * The static bundle's viewer (`redscope bundle`, "Download as a site"): the
 * Results pages over the bundle's one tree, addressed by the hash, built as
 * one classic script (dist/site-viewer/viewer.js) so that it runs from
 * file:// as from any static host. The page's CSP is the app's, with no
 * connection at all: the data comes as scripts from the bundle's own folder.
 */
import { QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import '../app.css'
import './site.css'
import { BundleStorage } from '../../adapters/storage/bundleStorage'
import { parseChunk } from '../../core/bundle'
import { setSiteSource } from '../../features/results/sourcesStore'
import { queryClient } from '../../queries/queryClient'
import { loadChunk, takeOverDataGlobal } from './chunkLoader'
import { SiteShell } from './SiteShell'

function open(): BundleStorage | string {
  const index = takeOverDataGlobal()
  if (index === null) return "data/index.js did not load: open index.html from the bundle's folder, with its data/ folder beside it."
  try {
    return new BundleStorage(parseChunk(index, 'data/index.js'), loadChunk)
  } catch (e) {
    return `This bundle's data/index.js cannot be read: ${(e as Error).message}`
  }
}

const storage = open()
if (typeof storage !== 'string') {
  setSiteSource({ key: `site:${storage.label}`, kind: 'site', label: storage.label, storage })
  document.title = `${storage.label}: redscope results`
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <SiteShell storage={storage} />
    </QueryClientProvider>
  </StrictMode>,
)
