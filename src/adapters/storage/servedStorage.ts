/**
 * The results folder that `redscope view` serves beside the app, read from
 * the same origin through its read-only API (src/servers/app/resultsApi.ts):
 * files by path and folder listings, so an experiment without an
 * experiments.json row (being written, or interrupted) is still found.
 */
import { z } from 'zod'
import { StorageNotFoundError, type StorageEntry } from '../../core/results/storage'
import { ReadOnlyStorage } from './readOnlyStorage'

export const SERVED_RESULTS_API = '/api/results'

/** `label: null`: the app server serves no folder (`npm start`, `view --no-results`). */
const InfoSchema = z.object({ label: z.string().min(1).max(500).nullable() })
const ListingSchema = z.object({ entries: z.array(z.object({ name: z.string(), kind: z.enum(['file', 'dir']) })) })

export class ServedStorageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ServedStorageError'
  }
}

/** The served folder's name, or null when this page is not served with one (vite dev, a static host, `npm start`). */
export async function servedResultsLabel(fetchFn: typeof fetch = (...a) => fetch(...a)): Promise<string | null> {
  try {
    const response = await fetchFn(SERVED_RESULTS_API, { cache: 'no-store', headers: { Accept: 'application/json' } })
    if (!response.ok) return null
    const parsed = InfoSchema.safeParse(await response.json())
    return parsed.success ? parsed.data.label : null
  } catch {
    // Another server answered with the app's HTML, or nothing: no folder is served here.
    return null
  }
}

const pathOf = (path: string) =>
  path
    .split('/')
    .filter((s) => s !== '' && s !== '.')
    .map(encodeURIComponent)
    .join('/')

export class ServedStorage extends ReadOnlyStorage {
  readonly label: string
  private readonly fetchFn: typeof fetch

  constructor(label: string, fetchFn: typeof fetch = (...a) => fetch(...a)) {
    super()
    this.label = label
    this.fetchFn = fetchFn
  }

  private async get(what: 'files' | 'list', path: string): Promise<Response> {
    const url = `${SERVED_RESULTS_API}/${what}/${pathOf(path)}`
    let response: Response
    try {
      response = await this.fetchFn(url, { cache: 'no-store', credentials: 'same-origin' })
    } catch {
      throw new ServedStorageError(`Could not read ${path || 'the results folder'}: the redscope view server is not reachable (stopped?).`)
    }
    if (response.status === 404) throw new StorageNotFoundError(path)
    if (!response.ok) throw new ServedStorageError(`${path || 'the results folder'}: the server answered ${response.status}`)
    return response
  }

  async readText(path: string): Promise<string> {
    return (await this.get('files', path)).text()
  }

  async list(dir: string): Promise<StorageEntry[]> {
    try {
      const parsed = ListingSchema.safeParse(await (await this.get('list', dir)).json())
      if (!parsed.success) throw new ServedStorageError(`${dir || 'the results folder'}: the server's listing is malformed`)
      return parsed.data.entries
    } catch (e) {
      if (e instanceof StorageNotFoundError) return []
      throw e
    }
  }
}
