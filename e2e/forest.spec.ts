import { expect, test } from '@playwright/test'

test('the app shows the chatbot forest, every tag findable by name', async ({ page }) => {
  await page.goto('/')
  for (const name of ['system', 'system_prompt', 'model', 'model_identity', 'user']) {
    await expect(page.getByRole('group', { name, exact: true })).toBeVisible()
  }
  // Edges go parent -> child: three under system, none to user.
  await expect(page.locator('.react-flow__edge')).toHaveCount(3)
})
