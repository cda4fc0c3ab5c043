/** The reason a run cannot start with this claim against the target selected (setup/claimTarget.ts), beside each start button. */
export function ClaimTargetBlock({ reason }: { reason: string | null }) {
  return reason === null ? null : (
    <p className="rc-issue" role="alert" data-testid="claim-target-mismatch">
      {reason}
    </p>
  )
}
