import { useState } from 'react'
import type { Storage } from '../../../core/results'
import { plural } from '../../../lib/plural'
import { downloadSite } from '../../../lib/siteZip'

/** Makes a static site of experiments of a source, saying what it does meanwhile, what was masked, and why it failed. */
export function useSiteZip(storage: Storage) {
  const [busy, setBusy] = useState<string | null>(null)
  const site = async (title: string, dirs?: readonly string[], extraRootFiles?: Readonly<Record<string, string>>) => {
    setBusy(dirs ? `Making a site of ${plural(dirs.length, 'experiment')}…` : 'Making a site…')
    try {
      const stats = await downloadSite({ storage, title, dirs, extraRootFiles })
      setBusy(
        `Site saved: ${plural(stats.experiments, 'experiment')}, ${plural(stats.masked, 'secret')} masked by the built-in rules. Unzip it and open index.html, or put the folder on any static host.`,
      )
    } catch (e) {
      setBusy(`Could not make the site: ${(e as Error).message}`)
    }
  }
  return { busy, site }
}
