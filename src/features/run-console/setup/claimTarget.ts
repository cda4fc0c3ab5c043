/**
 * A claim served by one target never runs against another (issue 31): a served task is configured and judged by
 * the server whose claim numbers it, so after the Target URL changes, the previous server's served claim would
 * run under the new target's name, judged by tasks it may not have. The Run, Run sweep and frontier buttons are
 * disabled with this reason, and buildRun refuses with it, so no start path can get past it.
 */
import { httpTargetUrl, servedFrom } from './servedClaim'
import type { Setup } from './setupTypes'

export function servedClaimMismatch(setup: Pick<Setup, 'claim' | 'target'>): string | null {
  const from = servedFrom(setup.claim)
  if (from === null || !setup.claim.tasks.some((t) => t.evaluator.type === 'served')) return null
  const t = setup.target
  const here = t.kind === 'http' ? httpTargetUrl(t) : ''
  if (here === from) return null
  const selected =
    t.kind === 'http'
      ? here === ''
        ? 'no Target URL'
        : here
      : t.kind === 'demo'
        ? `the demo ${t.demo}`
        : `a ${t.kind === 'openai' ? 'chat endpoint' : 'JSON HTTP endpoint'}`
  return (
    `Claim: its tasks are served by ${from}, but the target selected is ${selected}: ` +
    'select that target again, use the selected target’s own claim, or pick another claim.'
  )
}
