/**
 * Importing a target's forest never overwrites a workspace by surprise: by default it goes into a new workspace
 * named after the target, and the seeded workspace keeps its forest and its six saved threat models. Replacing
 * this workspace's forest is a choice, names the saved threat models that lose tags, and Undo restores them.
 */
import { expect, test, type Page } from '@playwright/test'
import { openDesigner, openMenu, tag } from './designerHelpers'

const SEEDED = 'Chatbot (guide example)'

async function importAssistant(page: Page, replace = false) {
  const menu = await openMenu(page, 'Import')
  await expect(menu.getByRole('radio', { name: /a new workspace/ })).toBeChecked()
  if (replace) await menu.getByRole('radio', { name: /replace this workspace's forest/ }).check()
  // The demo assistant served beside the app (vite preview mounts the reference targets).
  await menu.getByLabel('Target URL (GET /manifest)').fill(new URL('/targets/assistant', page.url()).href)
  await menu.getByRole('button', { name: 'Import', exact: true }).click()
}

const savedModel = (page: Page, name: string) => page.getByRole('listitem', { name: `Threat model ${name}` })

async function expectGuideModelsWhole(page: Page) {
  await page.getByRole('tab', { name: 'Threat models' }).click()
  await expect(page.getByRole('list', { name: 'Saved threat models' }).getByRole('listitem')).toHaveCount(6)
  await expect(page.getByText(/no longer in the forest/)).toHaveCount(0)
  await expect(savedModel(page, 'Guide: compromised output').locator('.chip')).toHaveText(['model', 'user'])
  await expect(savedModel(page, 'Guide: user who reads the responses').locator('.chip')).toHaveText(['user', 'model (read only)'])
}

test("a target's forest goes into a new workspace named after it; the seeded workspace and its saved threat models are untouched", async ({
  page,
}) => {
  await openDesigner(page)
  const sidebar = page.getByRole('complementary', { name: 'Workspaces' })
  await importAssistant(page)
  await expect(page.getByRole('status').filter({ hasText: 'Connected to redscope-assistant at' })).toContainText(
    'into a new workspace, “redscope-assistant”.',
  )
  await expect(sidebar.locator('[aria-current="true"]')).toContainText('redscope-assistant')
  await expect(tag(page, 'bank_account')).toBeAttached()
  await expect(sidebar.locator('.ws__name')).toHaveText([SEEDED, 'redscope-assistant'])

  await page.reload()
  await expect(sidebar.locator('[aria-current="true"]')).toContainText('redscope-assistant')
  await sidebar.getByRole('button', { name: new RegExp(`^${SEEDED.replace(/[()]/g, '\\$&')}`) }).click()
  await expect(tag(page, 'model')).toBeAttached()
  await expect(tag(page, 'bank_account')).toHaveCount(0)
  await expectGuideModelsWhole(page)
})

test('the Run page follows the target the workspace was imported from, once: another target picked there stays', async ({ page }) => {
  await openDesigner(page)
  await importAssistant(page)
  const url = new URL('/targets/assistant', page.url()).href
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Run', exact: true }).click()
  await expect(page.getByRole('radio', { name: 'Target URL' })).toBeChecked()
  await expect(page.getByLabel('Target-over-HTTP server')).toHaveValue(url)
  await expect(page.getByTestId('followed-target')).toHaveText(
    'The target the workspace “redscope-assistant” was imported from in the designer. If it wants a bearer token, give it below.',
  )
  // Its connection is tested at once: the manifest is the assistant's.
  await expect(page.getByTestId('manifest')).toContainText('redscope-assistant')

  await page.getByRole('radio', { name: 'Demo' }).click()
  await page.reload()
  await expect(page.getByRole('radio', { name: 'Demo' })).toBeChecked()
  await expect(page.getByTestId('followed-target')).toHaveCount(0)
})

test("replacing this workspace's forest names the saved threat models that lose tags, and Undo restores them", async ({ page }) => {
  await openDesigner(page)
  const sidebar = page.getByRole('complementary', { name: 'Workspaces' })
  await importAssistant(page, true)
  const notice = page.getByRole('status').filter({ hasText: 'Connected to redscope-assistant' })
  await expect(notice).toContainText(`replacing the forest of “${SEEDED}” (Undo brings it back).`)
  await expect(notice).toContainText(
    '2 saved threat models grant tags the new forest lacks: “Guide: user who reads the responses” loses model; “Guide: compromised output” loses model.',
  )
  await expect(sidebar.locator('.ws__name')).toHaveText([SEEDED])
  await expect(tag(page, 'bank_account')).toBeAttached()
  await page.getByRole('tab', { name: 'Threat models' }).click()
  await expect(page.getByRole('list', { name: 'Saved threat models' }).getByRole('listitem')).toHaveCount(6)
  await expect(savedModel(page, 'Guide: compromised output')).toContainText('(1 granted tag no longer in the forest)')
  await expect(savedModel(page, 'Guide: blind user').locator('.chip')).toHaveText(['user'])
  // The choice was for that import only: the next goes into a new workspace again.
  await expect((await openMenu(page, 'Import')).getByRole('radio', { name: /a new workspace/ })).toBeChecked()
  await page.keyboard.press('Escape')

  await page.getByRole('button', { name: 'Undo' }).click()
  await expect(tag(page, 'model')).toBeAttached()
  await expect(tag(page, 'bank_account')).toHaveCount(0)
  await expectGuideModelsWhole(page)
})
