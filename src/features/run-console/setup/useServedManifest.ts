import { useQuery } from '@tanstack/react-query'
import type { Manifest } from '../../../protocol'
import { targetManifestQuery } from '../../../queries/targetManifest'
import { httpTargetUrl } from './servedClaim'
import { useSecrets } from './secretsStore'
import { useSetup } from './setupStore'
import { useTestedTarget } from './testedTarget'

export interface ServedManifest {
  readonly url: string
  readonly manifest: Manifest
}

/** The served claim of the tested Target URL, when the setup's target is that URL; null otherwise. */
export function useServedManifest(): ServedManifest | null {
  const target = useSetup((s) => s.target)
  const tested = useTestedTarget()
  const token = useSecrets((s) => s.values.targetToken)
  const url = httpTargetUrl(target)
  const current = target.kind === 'http' && url !== '' && tested.url === url
  const q = useQuery({ ...targetManifestQuery(current ? url : null, token, tested.attempt), enabled: current })
  return current && q.data ? { url, manifest: q.data } : null
}
