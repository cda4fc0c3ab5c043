import type { QueryClient } from '@tanstack/react-query'
import { parseJsonText, ForestFileError } from '../../lib/forestJson'
import { forestFromManifest } from '../../protocol/schemas'
import { TargetRequestError } from '../../protocol'
import { ManifestError, parseManifest, targetBaseUrl, targetManifestQuery } from '../../queries/targetManifest'
import { replaceForest } from '../../stores/forestCommands'
import { notify } from '../../stores/noticeStore'
import { workspaceStore } from '../../stores/workspaceStore'
import { plural } from '../../lib/plural'

/** A manifest file: connects the workspace to it (its surfaces) and takes its forest. */
export async function importManifestFile(file: File): Promise<boolean> {
  try {
    const json = parseJsonText(await file.text())
    const manifest = parseManifest(json, file.name)
    workspaceStore.getState().setTarget({ kind: 'file', fileName: file.name, manifest: json })
    replaceForest(forestFromManifest(manifest))
    notify('info', `Connected to ${manifest.name} (from ${file.name}) and took its forest of ${plural(manifest.security_domain.length, 'tag')}.`)
    return true
  } catch (e) {
    if (e instanceof ForestFileError || e instanceof ManifestError) {
      notify('error', e instanceof ForestFileError ? `${file.name}: ${e.message}` : e.message)
      return false
    }
    throw e
  }
}

/** A Target-over-HTTP server: GET {url}/manifest, connect, take its forest. */
export async function importManifestUrl(url: string, queryClient: QueryClient): Promise<boolean> {
  try {
    const base = targetBaseUrl(url)
    const manifest = await queryClient.fetchQuery(targetManifestQuery(base))
    workspaceStore.getState().setTarget({ kind: 'url', url: base })
    replaceForest(forestFromManifest(manifest))
    notify('info', `Connected to ${manifest.name} at ${base} and took its forest of ${plural(manifest.security_domain.length, 'tag')}.`)
    return true
  } catch (e) {
    if (e instanceof ManifestError || e instanceof TargetRequestError) {
      notify('error', e.message)
      return false
    }
    throw e
  }
}
