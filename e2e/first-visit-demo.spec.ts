import { expect, test } from '@playwright/test'
import { pickClaim, taskStatuses, waitForState } from './runConsole/helpers'

test.use({ viewport: { width: 1440, height: 1000 } })

// The README's first command promises a demo target and a demo threat model
// with no key and no setup: a first visit must be able to run one as it is.
test('a first visit attacks the demo chatbot with a saved demo threat model, no setup', async ({ page }) => {
  await page.goto('/run')
  await expect(page.getByTestId('manifest')).toContainText('redscope-chatbot')
  await pickClaim(page, 'chatbot-secret-leak.json')
  const models = page.getByRole('radiogroup', { name: 'Threat model' })
  await expect(models.getByRole('radio')).toHaveCount(7)
  await models.getByRole('radio', { name: /Guide: blind user/ }).click()
  await expect(models.getByRole('radio', { name: /Guide: blind user/ })).toHaveAttribute('aria-checked', 'true')
  await page.getByRole('button', { name: 'Run threat model' }).click()
  await waitForState(page, 'Finished', 60_000)
  const statuses = await taskStatuses(page)
  expect(statuses).toHaveLength(3)
  expect(statuses[0]).toBe('success')
})
