import type { QueryClient } from '@tanstack/react-query'
import { parseJsonText, ForestFileError } from '../../lib/forestJson'
import { forestFromManifest, type Manifest } from '../../protocol/schemas'
import { TargetRequestError } from '../../protocol'
import { ManifestError, parseManifest, targetBaseUrl, targetManifestQuery } from '../../queries/targetManifest'
import { importForest, ImportSaveError, whereItWent, type ImportInto } from '../../stores/forestImport'
import { notify } from '../../stores/noticeStore'
import type { TargetRef } from '../../stores/workspaceTypes'
import { plural } from '../../lib/plural'

/** The target's forest into a new workspace named after it (or into this one: 'replace'), connected to the target. */
async function takeForest(manifest: Manifest, target: TargetRef, from: string, into: ImportInto): Promise<void> {
  const outcome = await importForest({ forest: forestFromManifest(manifest), name: manifest.name, target }, into)
  notify(
    'info',
    `Connected to ${manifest.name} ${from} and took its forest of ${plural(manifest.security_domain.length, 'tag')}${whereItWent(outcome)}`,
  )
}

/** A manifest file: connects the workspace to it (its surfaces) and takes its forest. */
export async function importManifestFile(file: File, into: ImportInto): Promise<boolean> {
  try {
    const json = parseJsonText(await file.text())
    const manifest = parseManifest(json, file.name)
    await takeForest(manifest, { kind: 'file', fileName: file.name, manifest: json }, `(from ${file.name})`, into)
    return true
  } catch (e) {
    if (e instanceof ForestFileError || e instanceof ManifestError) {
      notify('error', e instanceof ForestFileError ? `${file.name}: ${e.message}` : e.message)
      return false
    }
    if (e instanceof ImportSaveError) {
      notify('error', e.message)
      return false
    }
    throw e
  }
}

/** A Target-over-HTTP server: GET {url}/manifest, connect, take its forest. */
export async function importManifestUrl(url: string, queryClient: QueryClient, into: ImportInto): Promise<boolean> {
  try {
    const base = targetBaseUrl(url)
    const manifest = await queryClient.fetchQuery(targetManifestQuery(base))
    await takeForest(manifest, { kind: 'url', url: base }, `at ${base}`, into)
    return true
  } catch (e) {
    if (e instanceof ManifestError || e instanceof TargetRequestError) {
      notify('error', e.message)
      return false
    }
    if (e instanceof ImportSaveError) {
      notify('error', e.message)
      return false
    }
    throw e
  }
}
