import { expect, type Download, type Locator, type Page } from '@playwright/test'
import { readFile } from 'node:fs/promises'

/** A tag on the canvas: the React Flow node whose accessible name is the tag's name. */
export const tag = (page: Page, name: string): Locator => page.getByRole('group', { name, exact: true })

export async function openDesigner(page: Page): Promise<void> {
  await page.goto('/')
  await expect(page.locator('.react-flow__node').first()).toBeVisible()
}

export async function openMenu(page: Page, label: string): Promise<Locator> {
  const details = page.locator('details', { has: page.locator('summary', { hasText: label }) }).first()
  if ((await details.getAttribute('open')) === null) await details.locator('summary').click()
  return page.getByRole('group', { name: label })
}

/** Drags a tag with the mouse, in small steps as a person would, and drops it at a point. */
export async function dragTo(page: Page, from: Locator, to: { x: number; y: number }): Promise<void> {
  const a = (await from.boundingBox())!
  await page.mouse.move(a.x + 30, a.y + 15)
  await page.mouse.down()
  await page.mouse.move(a.x + 45, a.y + 30, { steps: 4 })
  await page.mouse.move(to.x, to.y, { steps: 12 })
  await page.mouse.up()
}

export async function centre(l: Locator): Promise<{ x: number; y: number }> {
  const b = (await l.boundingBox())!
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 }
}

export async function downloadText(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [download] = (await Promise.all([page.waitForEvent('download'), click()])) as [Download, void]
  return { name: download.suggestedFilename(), text: await readFile((await download.path())!, 'utf8') }
}

/** The names of the tags (all on the canvas, or those named) that are not wholly inside the canvas. */
export async function outsideCanvas(page: Page, names?: readonly string[]): Promise<string[]> {
  return page.evaluate((wanted) => {
    const canvas = document.querySelector('.forest-canvas')!.getBoundingClientRect()
    const outside: string[] = []
    for (const el of document.querySelectorAll('.react-flow__node')) {
      const name = el.getAttribute('aria-label') ?? '?'
      if (wanted !== null && !wanted.includes(name)) continue
      const b = el.getBoundingClientRect()
      if (b.left < canvas.left - 0.5 || b.top < canvas.top - 0.5 || b.right > canvas.right + 0.5 || b.bottom > canvas.bottom + 0.5)
        outside.push(name)
    }
    return outside
  }, names ?? null)
}

/** A locator's box once it has stopped moving (a pan or a fit glides): the same box twice, 300 ms apart (never none). */
export async function settledBox(l: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  let last = ''
  await expect
    .poll(
      async () => {
        const now = JSON.stringify(await l.boundingBox())
        const still = now === last && now !== 'null'
        last = now
        return still
      },
      { intervals: [300], timeout: 10_000 },
    )
    .toBe(true)
  return JSON.parse(last)
}
