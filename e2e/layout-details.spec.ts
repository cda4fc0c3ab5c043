import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { openDesigner, openMenu, tag } from './designerHelpers'
import { copyFixture, EXP } from './support/resultsTree'

test('the results table fits a 1440 px window, and an empty read-only set reads "none"', async ({ page }) => {
  const dir = copyFixture(join(mkdtempSync(join(tmpdir(), 'redscope-layout-')), 'tree'))
  try {
    // This experiment granted nothing read-only.
    for (const f of ['experiments.json', `${EXP}/manifest.json`]) {
      const text = readFileSync(join(dir, f), 'utf8').replace(/"read_only": \[[^\]]*\]/g, '"read_only": []')
      writeFileSync(join(dir, f), text)
    }
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto('/results')
    await page.getByTestId('folder-input').setInputFiles(dir)
    const table = page.locator('table.results-table').first()
    await expect(table).toBeVisible()
    const box = (await table.boundingBox())!
    expect(box.x + box.width).toBeLessThanOrEqual(1440)
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(1440)
    await expect(table.locator('td code:empty')).toHaveCount(0)
    // The experiment's own page says "none" for its empty read-only set, not an empty pill.
    await table.locator('tbody tr').first().getByRole('link').first().click()
    const header = page.locator('.exp-header')
    await expect(header.locator('.tag-names--none')).toHaveText('none')
    await expect(header.locator('code:empty')).toHaveCount(0)
  } finally {
    rmSync(join(dir, '..'), { recursive: true, force: true })
  }
})

test('counts say "1 tag", and a long workspace name stays readable in the sidebar', async ({ page }) => {
  await openDesigner(page)
  const sidebar = page.getByRole('complementary', { name: 'Workspaces' })
  await (await openMenu(page, '+ New workspace')).getByRole('button', { name: 'Empty forest' }).click()
  await page.getByRole('button', { name: '+ Root' }).click()
  await page.keyboard.type('only_root')
  await page.keyboard.press('Enter')
  await expect(sidebar.locator('.ws--active .ws__meta')).toHaveText('1 tag')

  const long = 'Payments platform: customer support assistant (production, EU region)'
  await sidebar.getByRole('button', { name: /^Rename Untitled workspace/ }).click()
  const input = sidebar.getByRole('textbox', { name: 'Workspace name' })
  await input.fill(long)
  await input.press('Enter')
  const name = sidebar.locator('.ws--active .ws__name')
  await expect(name).toHaveText(long)
  // Every word is on screen: no ellipsis, nothing cut off sideways, and the full name on hover.
  const clip = await name.evaluate((el) => ({ sideways: el.scrollWidth - el.clientWidth, down: el.scrollHeight - el.clientHeight }))
  expect(clip).toEqual({ sideways: 0, down: 0 })
  await expect(name).toHaveAttribute('title', long)
})

/** How many pixels of a PNG carry the selection colour (#d6336c, the pink of the selection ring), decoded by Chromium. */
async function selectionPixels(page: Page, png: Buffer): Promise<number> {
  const blank = await page.context().newPage()
  try {
    return await blank.evaluate(async (b64) => {
      const img = new Image()
      img.src = `data:image/png;base64,${b64}`
      await img.decode()
      const c = document.createElement('canvas')
      c.width = img.naturalWidth
      c.height = img.naturalHeight
      const g = c.getContext('2d')!
      g.drawImage(img, 0, 0)
      const d = g.getImageData(0, 0, c.width, c.height).data
      let n = 0
      for (let i = 0; i < d.length; i += 4) if (d[i] > 180 && d[i + 1] < 120 && d[i + 2] > 80 && d[i + 2] < 170) n++
      return n
    }, png.toString('base64'))
  } finally {
    await blank.close()
  }
}

test('the PNG export shows no selection highlight, and the selection is back after it', async ({ page }) => {
  await openDesigner(page)
  const png = async () => {
    const [d] = await Promise.all([
      page.waitForEvent('download'),
      (await openMenu(page, 'Export')).getByRole('button', { name: 'Diagram as PNG' }).click(),
    ])
    return readFileSync((await d.path())!)
  }
  await tag(page, 'model').click()
  await expect(page.locator('.react-flow__node.selected')).toHaveCount(1)
  // The check can see a selection: the canvas on screen has the ring.
  expect(await selectionPixels(page, await page.locator('.forest-canvas').screenshot())).toBeGreaterThan(200)
  const exported = await png()
  expect(exported.length).toBeGreaterThan(5000)
  expect(await selectionPixels(page, exported)).toBe(0)
  await expect(page.locator('.react-flow__node.selected[aria-label="model"]')).toHaveCount(1)
})

test('applying a listed threat model that drops read-only says so, and the list filter survives switching tabs', async ({ page }) => {
  await openDesigner(page)
  await page.getByRole('radio', { name: 'Pick scope' }).click()
  await tag(page, 'system').click()
  await tag(page, 'system').click()
  await expect(tag(page, 'system')).toHaveAttribute('data-access', 'read_only')
  await page.getByRole('tab', { name: 'Threat models' }).click()
  await page.locator('#combo-filter').selectOption('user')
  await expect(page.getByRole('button', { name: 'Remove filter user' })).toBeVisible()
  await page.getByRole('tab', { name: 'Tag', exact: true }).click()
  await page.getByRole('tab', { name: 'Threat models' }).click()
  await expect(page.getByRole('button', { name: 'Remove filter user' })).toBeVisible()
  await expect(page.getByTestId('filtered-count')).toContainText('contain user')

  await page.getByRole('button', { name: /^Apply threat model \d+: user$/ }).click()
  await expect(page.getByRole('status').filter({ hasText: 'the read-only tag system was cleared' })).toBeVisible()
  await expect(tag(page, 'system')).toHaveAttribute('data-access', 'none')
  await expect(tag(page, 'user')).toHaveAttribute('data-access', 'scope')
  // Without read-only to drop, nothing is said.
  await page.getByRole('button', { name: 'Dismiss' }).click()
  await page.getByRole('button', { name: /^Apply threat model \d+: user$/ }).click()
  await expect(page.getByRole('status').filter({ hasText: 'was cleared' })).toHaveCount(0)
})
