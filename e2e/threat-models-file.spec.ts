/**
 * Saved threat models as a file a team keeps in git (issue 34, point 5): the seeded workspace's six export to
 * threat-models.json by tag name, names and notes kept; importing it back restores a deleted one and saves
 * nothing twice; a file naming a tag this forest lacks is refused, naming the threat model and the tag.
 */
import { readFileSync } from 'node:fs'
import { expect, test, type Page } from '@playwright/test'
import { openDesigner } from './designerHelpers'

const savedModel = (page: Page, name: string) => page.getByRole('listitem', { name: `Threat model ${name}` })

test('saved threat models export to threat-models.json and import back, names kept, nothing saved twice', async ({ page }) => {
  await openDesigner(page)
  await page.getByRole('tab', { name: 'Threat models' }).click()
  const list = page.getByRole('list', { name: 'Saved threat models' }).getByRole('listitem')
  await expect(list).toHaveCount(6)
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export threat-models.json' }).click(),
  ])
  expect(download.suggestedFilename()).toBe('threat-models.json')
  const path = (await download.path())!
  const file = JSON.parse(readFileSync(path, 'utf8')) as {
    v: number
    threat_models: Array<{ name: string; scope: string[]; read_only: string[] }>
  }
  expect(file.v).toBe(1)
  expect(file.threat_models).toHaveLength(6)
  expect(file.threat_models.find((m) => m.name === 'Guide: user who reads the responses')).toMatchObject({
    scope: ['user'],
    read_only: ['model'],
  })

  await page.getByRole('button', { name: 'Delete Guide: user who reads the responses' }).click()
  await expect(list).toHaveCount(5)
  // The file as a user picks it: under the name it was saved as.
  await page
    .getByLabel('Import threat-models.json')
    .setInputFiles({ name: 'threat-models.json', mimeType: 'application/json', buffer: readFileSync(path) })
  await expect(
    page.getByRole('status').filter({ hasText: 'threat-models.json: 1 threat model imported, 5 were already saved' }),
  ).toBeVisible()
  await expect(list).toHaveCount(6)
  await expect(savedModel(page, 'Guide: user who reads the responses').locator('.chip')).toHaveText(['user', 'model (read only)'])

  await page.getByLabel('Import threat-models.json').setInputFiles({
    name: 'theirs.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ v: 1, threat_models: [{ name: 'Vault thief', scope: ['vault'] }] })),
  })
  await expect(
    page
      .getByRole('alert')
      .or(page.getByRole('status'))
      .filter({ hasText: 'theirs.json: threat model "Vault thief": "vault" is not a tag of this forest' }),
  ).toBeVisible()
  await expect(list).toHaveCount(6)
})
