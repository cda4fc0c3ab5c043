/** Saves experiments as a zip of a superred results tree, through a temporary link (no navigation). */
import { downloadUrl, safeFileName } from '../../../lib/download'
import { resultsStorage } from './resultsStorage'
import { zipTree } from './zipExport'

export async function downloadExperimentsZip(dirs: readonly string[], name: string, extra: Readonly<Record<string, string>> = {}): Promise<void> {
  const top = safeFileName(name, 'redscope-results')
  const data = await zipTree(resultsStorage(), dirs, top, extra)
  const url = URL.createObjectURL(new Blob([data as Uint8Array<ArrayBuffer>], { type: 'application/zip' }))
  downloadUrl(`${top}.zip`, url)
  setTimeout(() => URL.revokeObjectURL(url), 30_000)
}
