/** Saves experiments as a zip of a superred results tree, through a temporary link (no navigation). */
import { redactingReader, type Storage } from '../core/results'
import { downloadUrl, safeFileName } from './download'
import { resultsStorage } from './browserResults'
import { exportMask } from './heldSecrets'
import { zipTree } from './zipTree'

/** Zips `dirs` of any results Storage (the Results tab passes the source it lists). */
export async function downloadTreeZip(
  storage: Storage,
  dirs: readonly string[],
  name: string,
  extra: Readonly<Record<string, string>> = {},
): Promise<void> {
  const top = safeFileName(name, 'redscope-results')
  // Masked on the way out too: a tree written before the mask, or elsewhere, may hold a key this page holds.
  const data = await zipTree(redactingReader(storage, exportMask()), dirs, top, extra)
  const url = URL.createObjectURL(new Blob([data as Uint8Array<ArrayBuffer>], { type: 'application/zip' }))
  downloadUrl(`${top}.zip`, url)
  setTimeout(() => URL.revokeObjectURL(url), 30_000)
}

/** Zips experiments of this browser's runs. */
export function downloadExperimentsZip(dirs: readonly string[], name: string, extra: Readonly<Record<string, string>> = {}): Promise<void> {
  return downloadTreeZip(resultsStorage(), dirs, name, extra)
}
