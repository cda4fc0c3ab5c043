import { expect, test, type Page } from '@playwright/test'
import { openDesigner, openMenu, outsideCanvas, settledBox, tag } from './designerHelpers'

/** A generated forest of 300 tags: 12 roots, 4 children each, 5 grandchildren under each child. */
function generatedForest(): { tags: Array<{ name: string; parent: string | null; description: string }> } {
  const tags: Array<{ name: string; parent: string | null; description: string }> = []
  for (let r = 0; r < 12; r++) {
    tags.push({ name: `root_${r}`, parent: null, description: `channel ${r}` })
    for (let c = 0; c < 4; c++) {
      tags.push({ name: `store_${r}_${c}`, parent: `root_${r}`, description: '' })
      for (let g = 0; g < 5; g++) tags.push({ name: `field_${r}_${c}_${g}`, parent: `store_${r}_${c}`, description: '' })
    }
  }
  return { tags }
}

/** Every tag node on the canvas lies wholly inside the canvas (after Fit to view, nothing is left off screen). */
async function everyNodeInsideCanvas(page: Page, expected: number): Promise<void> {
  // Let the fit's animation settle before measuring.
  await expect.poll(async () => page.locator('.react-flow__node').count()).toBe(expected)
  await expect.poll(() => outsideCanvas(page), { timeout: 10_000 }).toEqual([])
}

async function fit(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Fit to view' }).click()
}

/** The user turns the layout to `to` (twice when the fit already turned it there: the turn is then the user's own). */
async function switchLayout(page: Page, to: 'right' | 'down'): Promise<void> {
  if ((await page.locator('.forest-canvas').getAttribute('data-direction')) === to)
    await page.getByRole('button', { name: /^Layout:/ }).click()
  await page.getByRole('button', { name: /^Layout:/ }).click()
  await expect(page.locator('.forest-canvas')).toHaveAttribute('data-direction', to)
}

test.beforeEach(async ({ page }) => {
  // A template that replaces the current forest may ask first: say yes, as a person trying it would.
  page.on('dialog', (d) => void d.accept())
  await page.setViewportSize({ width: 1280, height: 720 })
})

test('Fit to view shows every tag of the AgentDojo template, top down and left to right, and the layout is kept', async ({ page }) => {
  await openDesigner(page)
  await (await openMenu(page, 'Import')).getByRole('button', { name: /AgentDojo template/ }).click()
  const confirm = page.getByRole('button', { name: /^(Replace|Apply|Load)/ })
  if (await confirm.isVisible().catch(() => false)) await confirm.click()
  await expect(tag(page, 'system')).toBeVisible()
  const total = await page.evaluate(() => document.querySelectorAll('.react-flow__node').length)
  expect(total).toBe(24)
  // Full tags would be drawn too small to read at 1280x720: the fit picked compact tags, left to right.
  await expect(page.locator('.forest-canvas')).toHaveAttribute('data-density', 'compact')
  await expect(page.locator('.forest-canvas')).toHaveAttribute('data-direction', 'right')
  // Applying the template fits it; the button does again after panning away.
  await everyNodeInsideCanvas(page, total)
  await page.mouse.move(640, 400)
  await page.mouse.down()
  await page.mouse.move(1100, 650, { steps: 5 })
  await page.mouse.up()
  await fit(page)
  await everyNodeInsideCanvas(page, total)

  await switchLayout(page, 'right')
  await everyNodeInsideCanvas(page, total)
  // Left to right: a child sits to the right of its parent, not below it (measured once the tags stop gliding from
  // the top-down layout the double turn passed through).
  const child = await settledBox(tag(page, 'system_prompt'))
  const parent = (await tag(page, 'system').boundingBox())!
  expect(child.x).toBeGreaterThan(parent.x + parent.width)

  // The layout is the user's preference: still left to right after a reload.
  await page.reload()
  await expect(page.locator('.forest-canvas')).toHaveAttribute('data-direction', 'right')
  await switchLayout(page, 'down')
  await everyNodeInsideCanvas(page, total)
})

test('a generated 300-tag forest fits whole in both layouts', async ({ page }) => {
  test.setTimeout(60_000)
  await openDesigner(page)
  const forest = generatedForest()
  await (
    await openMenu(page, 'Import')
  )
    .getByLabel('FOREST.json file')
    .setInputFiles({ name: 'wide.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(forest)) })
  await expect(page.locator('.react-flow__node[aria-label="field_11_3_4"]')).toHaveCount(1)
  await fit(page)
  await everyNodeInsideCanvas(page, 300)
  await switchLayout(page, 'right')
  await everyNodeInsideCanvas(page, 300)
  await switchLayout(page, 'down')
})

test('folds a subtree into one tag with a count, and unfolds it', async ({ page }) => {
  await openDesigner(page)
  await (await openMenu(page, 'Import')).getByRole('button', { name: /AgentDojo template/ }).click()
  const confirm = page.getByRole('button', { name: /^(Replace|Apply|Load)/ })
  if (await confirm.isVisible().catch(() => false)) await confirm.click()
  await expect(tag(page, 'system')).toBeVisible()
  const before = await page.locator('.react-flow__node').count()
  const fold = page.getByRole('button', { name: /^Fold the \d+ tags? under system$/ })
  const label = (await fold.getAttribute('aria-label'))!
  const hidden = Number(label.match(/\d+/)![0])
  expect(hidden).toBeGreaterThan(0)
  await fold.click()
  await expect(page.locator('.react-flow__node')).toHaveCount(before - hidden)
  await expect(tag(page, 'system_prompt')).toHaveCount(0)
  const unfold = page.getByRole('button', { name: `Unfold the ${hidden} tag${hidden === 1 ? '' : 's'} under system` })
  await expect(unfold).toHaveText(`+${hidden}`)
  await fit(page)
  await everyNodeInsideCanvas(page, before - hidden)
  await unfold.click()
  await expect(page.locator('.react-flow__node')).toHaveCount(before)
  await expect(tag(page, 'system_prompt')).toBeVisible()

  // Unfold all brings back every folded subtree at once.
  await page.getByRole('button', { name: /^Fold the \d+ tags? under system$/ }).click()
  await page.getByRole('button', { name: /^Fold the \d+ tags? under tools$/ }).click()
  await page.getByRole('button', { name: 'Unfold all' }).click()
  await expect(page.locator('.react-flow__node')).toHaveCount(before)
})

test('adding a root to a fitted wide forest keeps the new root on screen, in both layouts', async ({ page }) => {
  await openDesigner(page)
  await (await openMenu(page, 'Import')).getByRole('button', { name: /AgentDojo template/ }).click()
  const confirm = page.getByRole('button', { name: /^(Replace|Apply|Load)/ })
  if (await confirm.isVisible().catch(() => false)) await confirm.click()
  await expect(tag(page, 'system')).toBeVisible()
  for (const [direction, name] of [
    ['down', 'new_root_down'],
    ['right', 'new_root_right'],
  ] as const) {
    if (direction === 'right') await switchLayout(page, 'right')
    await fit(page)
    await page.getByRole('button', { name: '+ Root' }).click()
    await page.keyboard.type(name)
    await page.keyboard.press('Enter')
    const node = page.locator(`.react-flow__node[aria-label="${name}"]`)
    await expect(node).toHaveCount(1)
    await expect
      .poll(
        async () =>
          page.evaluate((n) => {
            const canvas = document.querySelector('.forest-canvas')!.getBoundingClientRect()
            const b = document.querySelector(`.react-flow__node[aria-label="${n}"]`)!.getBoundingClientRect()
            return b.left >= canvas.left && b.top >= canvas.top && b.right <= canvas.right && b.bottom <= canvas.bottom
          }, name),
        { timeout: 5_000 },
      )
      .toBe(true)
  }
  await switchLayout(page, 'down')
})
