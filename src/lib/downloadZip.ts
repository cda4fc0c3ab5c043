/** Saves experiments as a zip of a superred results tree, through a temporary link (no navigation). */
import type { Storage } from '../core/results'
import { downloadUrl, safeFileName } from './download'
import { resultsStorage } from './browserResults'
import { zipTree } from './zipTree'

/** Zips `dirs` of any results Storage (the Results tab passes the source it lists). */
export async function downloadTreeZip(storage: Storage, dirs: readonly string[], name: string, extra: Readonly<Record<string, string>> = {}): Promise<void> {
  const top = safeFileName(name, 'redscope-results')
  const data = await zipTree(storage, dirs, top, extra)
  const url = URL.createObjectURL(new Blob([data as Uint8Array<ArrayBuffer>], { type: 'application/zip' }))
  downloadUrl(`${top}.zip`, url)
  setTimeout(() => URL.revokeObjectURL(url), 30_000)
}

/** Zips experiments of this browser's runs. */
export function downloadExperimentsZip(dirs: readonly string[], name: string, extra: Readonly<Record<string, string>> = {}): Promise<void> {
  return downloadTreeZip(resultsStorage(), dirs, name, extra)
}
