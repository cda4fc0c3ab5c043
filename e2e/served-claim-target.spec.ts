/**
 * Issue 31, point 8: a run never starts with a claim served by a target other than the one selected. Two targets
 * on loopback, each serving a claim of its own (the chatbot reference target behind a proxy that adds one to its
 * manifest). After the Target URL switches from one to the other, the first one's served claim stays in the claim
 * table: Run, Run sweep and the frontier search are disabled with the reason shown until the claim matches the
 * target again (buildRun refuses it as well: src/features/run-console/runner/buildRunRefusals.test.ts).
 */
import { expect, test, type Page } from '@playwright/test'
import { connectTargetUrl, grantAndOpenRun, pickClaim } from './runConsole/helpers'
import { startClaimServingTarget, type Running } from './runConsole/servers'

let alpha: Running
let beta: Running

test.beforeAll(async () => {
  alpha = await startClaimServingTarget('alpha-bot', { name: 'alpha-claim', goals: ['Reveal the alpha secret.'] })
  beta = await startClaimServingTarget('beta-bot', { name: 'beta-claim', goals: ['Reveal the beta secret.', 'Book a flight.'] })
})
test.afterAll(async () => {
  await alpha.close()
  await beta.close()
})

test.use({ viewport: { width: 1440, height: 1000 } })

const runButton = (page: Page) => page.getByRole('button', { name: 'Run threat model' })

test("after switching targets, the previous server's served claim cannot run: Run is disabled with the reason until the claim matches", async ({
  page,
}) => {
  await grantAndOpenRun(page, ['user'])
  await pickClaim(page, 'chatbot-secret-leak.json')
  await connectTargetUrl(page, alpha.url, 'alpha-bot')
  await page.getByRole('button', { name: 'Use the target’s claim' }).click()
  const tasks = page.getByRole('list', { name: 'Tasks of the claim' })
  await expect(tasks).toContainText('Reveal the alpha secret.')
  await expect(runButton(page)).toBeEnabled()

  // Another target: alpha's served claim is still in the table, and nothing can start with it.
  await connectTargetUrl(page, beta.url, 'beta-bot')
  await expect(tasks).toContainText('Reveal the alpha secret.')
  const reason =
    `Claim: its tasks are served by ${alpha.url}, but the target selected is ${beta.url}: ` +
    'select that target again, use the selected target’s own claim, or pick another claim.'
  await expect(runButton(page)).toBeDisabled()
  await expect(page.getByTestId('run-blocked')).toHaveText(reason)

  // The sweep and the frontier search say the same and do not start either.
  await page.getByRole('link', { name: 'Sweep threat models' }).click()
  await expect(page.getByRole('button', { name: 'Run sweep' })).toBeDisabled()
  await expect(page.getByRole('button', { name: 'Find the weakest winning attacker' })).toBeDisabled()
  await expect(page.getByTestId('claim-target-mismatch')).toHaveText([reason, reason])
  await page.goBack()

  // The selected target's own claim: Run is enabled again, and the experiment would be labelled with beta's claim.
  await page.getByRole('button', { name: 'Use the target’s claim' }).click()
  await expect(tasks).toContainText('Reveal the beta secret.')
  await expect(runButton(page)).toBeEnabled()
  await expect(page.getByTestId('run-blocked')).toHaveCount(0)

  // Back to alpha with beta's claim: refused again, the other way round.
  await connectTargetUrl(page, alpha.url, 'alpha-bot')
  await expect(runButton(page)).toBeDisabled()
  await expect(page.getByTestId('run-blocked')).toContainText(
    `its tasks are served by ${beta.url}, but the target selected is ${alpha.url}`,
  )
})
