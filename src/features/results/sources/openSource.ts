import { FileListStorage } from '../../../adapters/storage/fileListStorage'
import { readDrop } from '../../../adapters/storage/dropEntries'
import { HttpStorage, parseResultsUrl } from '../../../adapters/storage/httpStorage'
import { IndexedDbStorage } from '../../../adapters/storage/indexedDbStorage'
import { ServedStorage } from '../../../adapters/storage/servedStorage'
import { ZipStorage } from '../../../adapters/storage/zipStorage'
import { RESULTS_DB, resultsStorage } from '../../../lib/browserResults'
import { currentSiteSource, parseSourceKey, sourceKey, useSourcesStore, type OpenSource } from '../sourcesStore'

export class OpenSourceError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'OpenSourceError'
  }
}

export function sourceFromFolder(files: ArrayLike<File>): OpenSource {
  if (files.length === 0) throw new OpenSourceError('The folder is empty (or the browser gave no files).')
  const storage = FileListStorage.fromFileList(files)
  return { key: sourceKey('folder', storage.label), kind: 'folder', label: storage.label, storage }
}

export async function sourceFromZip(file: File): Promise<OpenSource> {
  const storage = new ZipStorage(new Uint8Array(await file.arrayBuffer()), file.name)
  if (storage.fileCount === 0) throw new OpenSourceError(`${file.name}: the zip holds no files.`)
  return { key: sourceKey('zip', file.name), kind: 'zip', label: file.name, storage }
}

export async function sourceFromDrop(data: DataTransfer): Promise<OpenSource> {
  const dropped = await readDrop(data)
  if (dropped.files.length > 0) {
    const label = dropped.folderName ?? 'folder'
    return { key: sourceKey('folder', label), kind: 'folder', label, storage: new FileListStorage(dropped.files, label) }
  }
  const zip = dropped.plainFiles.find((f) => /\.zip$/i.test(f.name))
  if (zip) return sourceFromZip(zip)
  throw new OpenSourceError('Drop a results folder, or a .zip of one.')
}

const urlSources = new Map<string, OpenSource>()

/** A `superred serve` address as a source; the same object for the same address. */
export function sourceFromUrl(input: string): OpenSource {
  const parsed = parseResultsUrl(input)
  if (!parsed.ok) throw new OpenSourceError(parsed.message)
  const key = sourceKey('url', parsed.base)
  let source = urlSources.get(key)
  if (!source) {
    source = { key, kind: 'url', label: parsed.base, storage: new HttpStorage(parsed.base) }
    urlSources.set(key, source)
  }
  return source
}

/** The results written by this page's own runs, in IndexedDB; the same object for the same database. */
export function sourceFromIndexedDb(name = RESULTS_DB): OpenSource {
  const key = sourceKey('idb', name)
  let source = urlSources.get(key)
  if (!source) {
    source = {
      key,
      kind: 'idb',
      label: `this browser's runs (${name})`,
      storage: name === RESULTS_DB ? resultsStorage() : new IndexedDbStorage(name),
    }
    urlSources.set(key, source)
  }
  return source
}

/** The results folder served beside the app by `redscope view`; the same object for the same name. */
export function sourceFromServed(label: string): OpenSource {
  const key = sourceKey('served', label)
  let source = urlSources.get(key)
  if (!source) {
    source = { key, kind: 'served', label, storage: new ServedStorage(label) }
    urlSources.set(key, source)
  }
  return source
}

/**
 * The source a key names: one opened in this page, or, for a URL key from a
 * link, the server itself, and for the page's own runs, its IndexedDB (neither needs a file from the user). Folder and zip
 * keys in a fresh browser resolve to nothing: the user has to pick the files.
 */
export function useResolvedSource(key: string | null): OpenSource | undefined {
  const opened = useSourcesStore((s) => (key === null ? undefined : s.sources[key]))
  if (opened) return opened
  // A bundle holds one tree: an address without a source, or with another's, shows that tree.
  const site = currentSiteSource()
  if (site) return site
  if (key === null) return undefined
  const parsed = parseSourceKey(key)
  if (parsed?.kind === 'idb' && parsed.name === RESULTS_DB) return sourceFromIndexedDb(parsed.name)
  if (parsed?.kind === 'served') return sourceFromServed(parsed.name)
  if (parsed?.kind !== 'url') return undefined
  try {
    return sourceFromUrl(parsed.name)
  } catch {
    return undefined
  }
}
