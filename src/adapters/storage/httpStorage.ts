import { StorageNotFoundError, type StorageEntry } from '../../core/results/storage'
import { ReadOnlyStorage } from './readOnlyStorage'

export class HttpStorageError extends Error {
  readonly url: string
  constructor(url: string, message: string) {
    super(message)
    this.name = 'HttpStorageError'
    this.url = url
  }
}

/**
 * Checks a results URL typed by the user: http(s) only, no credentials in it.
 * Returns the normalised base (ending in "/") or a reason.
 */
export function parseResultsUrl(input: string): { ok: true; base: string } | { ok: false; message: string } {
  let url: URL
  try {
    url = new URL(input.trim())
  } catch {
    return { ok: false, message: `"${input}" is not a URL (expected e.g. http://127.0.0.1:8000/)` }
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, message: `Only http and https addresses can be read, not ${url.protocol}` }
  }
  if (url.username || url.password) return { ok: false, message: 'Put no user name or password in the address.' }
  url.hash = ''
  url.search = ''
  // A link to the dashboard or to a JSON file means its folder.
  if (!url.pathname.endsWith('/')) url.pathname = url.pathname.replace(/\/[^/]*$/, '/')
  return { ok: true, base: url.href }
}

/**
 * The results tree behind a running `superred serve` (a plain static file
 * server), read with GETs of experiments.json, manifest.json and task files.
 * A static server cannot list folders as data, so `list` is empty and the
 * browser finds everything through the index files.
 */
export class HttpStorage extends ReadOnlyStorage {
  readonly label: string
  readonly base: string
  private readonly fetchFn: typeof fetch

  constructor(base: string, fetchFn: typeof fetch = (...args) => fetch(...args)) {
    super()
    this.base = base
    this.label = base
    this.fetchFn = fetchFn
  }

  async readText(path: string): Promise<string> {
    // Paths come from the files themselves (a manifest's task dir): they must
    // stay under the base, so no "..", no empty segment ("//host" would leave it).
    const segments = path.split('/').filter((s) => s !== '' && s !== '.')
    if (segments.includes('..')) throw new StorageNotFoundError(path)
    const url = new URL(segments.map(encodeURIComponent).join('/'), this.base).href
    if (!url.startsWith(this.base)) throw new StorageNotFoundError(path)
    let response: Response
    try {
      response = await this.fetchFn(url, { credentials: 'omit', cache: 'no-cache', referrerPolicy: 'no-referrer' })
    } catch {
      throw new HttpStorageError(
        url,
        `Could not read ${url}: the server is not reachable, or it does not allow this page to read it ` +
          "(CORS: superred serve's plain static server sends no Access-Control-Allow-Origin header; serve the folder with one, " +
          'or open the folder or a zip of it instead).',
      )
    }
    if (response.status === 404) throw new StorageNotFoundError(path)
    if (!response.ok) throw new HttpStorageError(url, `${url} answered ${response.status} ${response.statusText}`.trim())
    return response.text()
  }

  async list(): Promise<StorageEntry[]> {
    return []
  }
}
