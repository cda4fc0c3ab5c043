/**
 * The Target URL last asked with "Test connection" (not persisted: after a reload the user asks again). The
 * target's status and the claim panel read that one manifest through the same cached query, so the served
 * claim shows beside the connection without a second request.
 */
import { create } from 'zustand'

interface TestedTarget {
  readonly url: string | null
  /** Bumped by each click, so a retry really asks again. */
  readonly attempt: number
}

export const useTestedTarget = create<TestedTarget>()(() => ({ url: null, attempt: 0 }))

export function testTarget(url: string): void {
  useTestedTarget.setState((s) => ({ url, attempt: s.attempt + 1 }))
}
