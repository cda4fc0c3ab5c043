import { servedClaimMismatch } from './claimTarget'
import { useSetup } from './setupStore'

/** Why nothing can start while the claim is served by a target other than the one selected; null otherwise. */
export function useClaimTargetMismatch(): string | null {
  const claim = useSetup((s) => s.claim)
  const target = useSetup((s) => s.target)
  return servedClaimMismatch({ claim, target })
}
