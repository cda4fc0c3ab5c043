/**
 * A demo target comes with its own claim: a first visit that runs the demo
 * chatbot as it is runs its shipped claim instead of failing on "no tasks".
 * Applied when a run starts, and only to a claim never picked nor written
 * (a user's own claim, even emptied, is never replaced).
 */
import { claimFileQuery, claimsIndexQuery } from '../queries/claims'
import { queryClient } from '../../../queries/queryClient'
import { draftFromClaimFile } from './claimDraft'
import type { Setup } from './setupTypes'
import { setupActions, useSetup } from './setupStore'

/** True when the setup's claim is the untouched default. */
export function claimUntouched(claim: Setup['claim']): boolean {
  return claim.tasks.length === 0 && claim.origin === ''
}

/** The shipped claim each demo target runs by default: keyless (no judge model), the one its docs walk through. */
export const DEMO_CLAIMS: Readonly<Record<Setup['target']['demo'], string>> = {
  chatbot: 'chatbot-secret-leak.json',
  assistant: 'assistant-exfiltration.json',
}

/** The shipped claim file a demo target runs by default, when the shipped list has it. */
export async function demoClaimFile(demo: Setup['target']['demo']): Promise<string | null> {
  const index = await queryClient.fetchQuery(claimsIndexQuery())
  return index.find((c) => c.file === DEMO_CLAIMS[demo])?.file ?? null
}

/** Loads the demo's claim into the setup when it applies; throws with the file named when it cannot be read. */
export async function applyDemoClaim(): Promise<void> {
  const { target, claim } = useSetup.getState()
  if (target.kind !== 'demo' || !claimUntouched(claim)) return
  const file = await demoClaimFile(target.demo)
  if (file === null) return
  const parsed = await queryClient.fetchQuery(claimFileQuery(file))
  if (claimUntouched(useSetup.getState().claim)) setupActions().setClaim(draftFromClaimFile(parsed, file))
}
