/**
 * "Download as a site": the static bundle `redscope bundle` writes, made in
 * the page from any results source and saved as one zip. The viewer's own
 * files come from the app's build (dist/site-viewer/, served beside the app);
 * the data from src/core/bundle, with the built-in redaction rules applied.
 */
import { zip, type Zippable } from 'fflate'
import { buildBundle, SITE_VIEWER_FILES, type BundleStats } from '../core/bundle'
import type { Storage } from '../core/results'
import { downloadUrl, safeFileName } from './download'

export class SiteViewerMissingError extends Error {
  constructor(file: string) {
    super(`the site viewer (${file}) is not served here: it is built with the app (npm start, redscope view), not by the dev server`)
    this.name = 'SiteViewerMissingError'
  }
}

/** The viewer's files from this app's own origin. */
async function viewerFiles(base: string): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>()
  for (const name of SITE_VIEWER_FILES) {
    let response: Response
    try {
      response = await fetch(`${base}site-viewer/${name}`, { cache: 'no-cache' })
    } catch {
      throw new SiteViewerMissingError(name)
    }
    const type = response.headers.get('Content-Type') ?? ''
    // A server that answers every address with the app's page (a dev server's fallback) has no viewer to give.
    if (!response.ok || (name !== 'index.html' && type.includes('text/html'))) throw new SiteViewerMissingError(name)
    out.set(name, new Uint8Array(await response.arrayBuffer()))
  }
  return out
}

export interface SiteRequest {
  readonly storage: Storage
  readonly title: string
  /** The experiments to put in (a selection, a sweep's); every one of the source when absent. */
  readonly dirs?: readonly string[]
  readonly extraRootFiles?: Readonly<Record<string, string>>
  readonly base?: string
}

/** Builds the site and saves it as `<name>-site.zip`; returns what went in. */
export async function downloadSite(req: SiteRequest): Promise<BundleStats> {
  const viewer = await viewerFiles(req.base ?? import.meta.env.BASE_URL)
  const top = `${safeFileName(req.title, 'redscope-results')}-site`
  const encoder = new TextEncoder()
  const entries: Zippable = {}
  for (const [name, bytes] of viewer) entries[`${top}/${name}`] = bytes
  const stats = await buildBundle(
    req.storage,
    {
      title: req.title,
      createdAt: new Date(),
      madeBy: 'redscope (Download as a site)',
      redact: true,
      dirs: req.dirs,
      extraRootFiles: req.extraRootFiles,
    },
    async (path, text) => {
      entries[`${top}/${path}`] = encoder.encode(text)
    },
  )
  const data = await new Promise<Uint8Array>((resolve, reject) =>
    zip(entries, { level: 6 }, (error, out) => (error ? reject(error) : resolve(out))),
  )
  const url = URL.createObjectURL(new Blob([data as Uint8Array<ArrayBuffer>], { type: 'application/zip' }))
  downloadUrl(`${top}.zip`, url)
  setTimeout(() => URL.revokeObjectURL(url), 30_000)
  return stats
}
