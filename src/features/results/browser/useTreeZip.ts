import { useState } from 'react'
import type { Storage } from '../../../core/results'
import { plural } from '../../../lib/plural'
import { downloadTreeZip } from '../../../lib/downloadZip'

/** Zips experiments of a source, saying what it does meanwhile and why it failed. */
export function useTreeZip(storage: Storage) {
  const [busy, setBusy] = useState<string | null>(null)
  const zip = async (dirs: readonly string[], name: string, extra?: Readonly<Record<string, string>>) => {
    setBusy(`Zipping ${plural(dirs.length, 'experiment')}…`)
    try {
      await downloadTreeZip(storage, dirs, name, extra)
      setBusy(null)
    } catch (e) {
      setBusy(`Could not zip: ${(e as Error).message}`)
    }
  }
  return { busy, zip }
}
