/**
 * A target that serves its own claim (a superred claim on the Python bridge: the manifest's `claim`) is judged
 * by that claim unless the user picks or writes another: its tasks configure each session and evaluate each run
 * on the server, by the claim's own code, so no claim file is needed. The tasks land in the claim table as
 * `served` tasks (task N of the server's claim), where they can be read and edited like any other.
 * Applied when a run starts, only to a claim never picked nor written (a user's own is never replaced).
 */
import { claimFileFromServed } from '../../../claims'
import type { Manifest } from '../../../protocol'
import { targetManifestQuery } from '../../../queries/targetManifest'
import { queryClient } from '../../../queries/queryClient'
import { draftFromClaimFile } from './claimDraft'
import { claimUntouched } from './demoClaim'
import { currentSecrets } from './secretsStore'
import { setupActions, useSetup } from './setupStore'
import type { ClaimDraft, TargetSetup } from './setupTypes'

const PREFIX = 'served:'

/** How the console marks a task the target serves (configured and judged on its side). */
export const SERVED_MARK = 'served by the target'

/** The claim draft's origin for the claim served at `url`. */
export const servedOrigin = (url: string) => `${PREFIX}${url}`

/** The address whose served claim the draft was loaded from, or null when it came from elsewhere. */
export function servedFrom(claim: ClaimDraft): string | null {
  return claim.origin.startsWith(PREFIX) ? claim.origin.slice(PREFIX.length) : null
}

/** The address of a Target URL setup as the console connects to it ('' when none is typed). */
export const httpTargetUrl = (target: Pick<TargetSetup, 'httpUrl'>) => target.httpUrl.trim().replace(/\/+$/, '')

/** The manifest's served claim as a claim table, or null when the target serves none. */
export function servedClaimDraft(manifest: Manifest, url: string): ClaimDraft | null {
  if (manifest.claim === null) return null
  return draftFromClaimFile(claimFileFromServed(manifest.claim, manifest.name), servedOrigin(url))
}

/**
 * Loads the Target URL's served claim into an untouched setup. A manifest that cannot be read is left for the
 * run's own connection to report (it says why, CORS included); a target serving no claim changes nothing.
 */
export async function applyServedClaim(): Promise<void> {
  const { target, claim } = useSetup.getState()
  const url = httpTargetUrl(target)
  if (target.kind !== 'http' || url === '' || !claimUntouched(claim)) return
  let manifest: Manifest
  try {
    manifest = await queryClient.fetchQuery(targetManifestQuery(url, currentSecrets().targetToken))
  } catch {
    return
  }
  const draft = servedClaimDraft(manifest, url)
  if (draft !== null && claimUntouched(useSetup.getState().claim)) setupActions().setClaim(draft)
}
