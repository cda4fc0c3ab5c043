/**
 * Words that are true: the demo's own run, opened in the viewer, says
 * "writable ... the optimizer was asked what to inject" only at the call the
 * blind user's scope covers, never at an observation or the run's end (both
 * on the same granted tag); the presenter and the exported finding say the
 * same in plain words, with the event's class name on demand; and every view
 * numbers the steps alike (row, panel, presenter, address, export).
 */
import { readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { expect, test, type Page } from '@playwright/test'
import { waitForState } from './runConsole/helpers'

test.use({ viewport: { width: 1440, height: 1000 } })

const row = (page: Page, item: number) => page.locator(`[role="row"][data-event="${item}"]`)
const panel = (page: Page) => page.getByRole('complementary', { name: 'Selected step' })

/** The item index of the first row whose full-trajectory cell reads `text`. */
async function itemWith(page: Page, text: string): Promise<number> {
  const r = page.locator('[role="row"][data-event]').filter({ hasText: text }).first()
  return Number(await r.getAttribute('data-event'))
}

test('the viewer, the presenter and the export say per kind only what is true, numbered alike', async ({ page, browser }, info) => {
  test.setTimeout(90_000)
  await page.goto('/')
  await page.getByRole('button', { name: 'Run the demo attack' }).click()
  await waitForState(page, 'Finished', 60_000)
  await page.getByRole('link', { name: 'open in viewer' }).click()
  await page.getByRole('link', { name: 'Reveal the vault passphrase.' }).first().click()
  await page.getByRole('link', { name: 'Run 1', exact: true }).click()
  await expect(page.getByRole('grid', { name: /Trajectory/ })).toBeVisible()

  // The call at the user's message: the blind user's scope covers it, so the optimizer was asked.
  const call = await itemWith(page, 'user_message')
  await row(page, call).click()
  await expect(panel(page)).toContainText(`Step ${call + 1} of`)
  await expect(panel(page).locator('.why__verdict')).toContainText('Writable')
  await expect(panel(page)).toContainText('so the optimizer was asked what to inject')
  // The answer right after it is the injection itself, labelled as one (it read "Not an injection point").
  await row(page, call + 1).click()
  await expect(panel(page).locator('.why__verdict')).toContainText('Injected')
  await expect(panel(page).locator('.why__verdict')).not.toContainText('Not an injection point')

  // The reply is an observation on the same granted tag: seen, and never an injection point.
  const reply = await itemWith(page, 'reply')
  await row(page, reply).click()
  await expect(panel(page).locator('.why__verdict')).toHaveText('Seen by the attackerNot an injection point')
  await expect(panel(page)).not.toContainText('asked what to inject')
  await expect(panel(page)).toContainText('An observation: the target reports it')
  await expect(row(page, reply).locator('.traj__index')).toHaveText(String(reply + 1))
  await expect(page).toHaveURL(new RegExp(`/1/${reply + 1}\\?`))

  // The run's end: never writable either.
  const last = await page.locator('[role="row"][data-event]').last().getAttribute('data-event')
  await row(page, Number(last)).click()
  await expect(panel(page)).toContainText('The end of the run: nothing is injected here')
  await expect(panel(page)).not.toContainText('asked what to inject')

  // Presenter: the same step, the same number, plain words; the class name on hover.
  await row(page, reply).click()
  await page.getByRole('button', { name: 'Presenter' }).click()
  const presenter = page.getByLabel('Presenter')
  await expect(presenter.getByRole('status')).toHaveText(new RegExp(`^Step ${reply + 1} of `))
  await expect(presenter.getByTestId('presenter-kind')).toHaveText('observation')
  await expect(presenter.getByTestId('presenter-kind')).toHaveAttribute('title', 'ObservableEvent')
  await expect(presenter.locator('.presenter__verdict')).toHaveText(
    'The attacker saw this. Not an injection point: nothing is written here.',
  )
  await expect(presenter.locator('.presenter__step')).not.toContainText(/ControllablePreCallEvent|ObservableEvent|declined_by/)
  await page.keyboard.press('Escape')

  // The export: the same numbers, the same words.
  await page.getByRole('button', { name: 'Export finding…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Export finding' })
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download HTML' }).click()])
  const file = info.outputPath('finding.html')
  await download.saveAs(file)
  expect(readFileSync(file, 'utf8')).not.toMatch(/<script/i)
  const ctx = await browser.newContext()
  const viewer = await ctx.newPage()
  await viewer.goto(pathToFileURL(file).href)
  const step = (n: number) => viewer.locator(`#step-${n}`)
  await expect(
    step(reply + 1)
      .locator('strong')
      .first(),
  ).toHaveText(`Step ${reply + 1}`)
  await expect(step(reply + 1).locator('.kind')).toHaveText('observation')
  await expect(step(reply + 1).locator('.kind')).toHaveAttribute('title', 'ObservableEvent')
  await expect(step(reply + 1)).toContainText('not an injection point')
  await expect(step(reply + 1)).not.toContainText('asked what to inject')
  await expect(step(call + 1)).toContainText('so the optimizer was asked what to inject')
  expect(await viewer.locator('main').innerText()).not.toMatch(/ControllablePreCallEvent|ObservableEvent|RunEndEvent|declined_by/)
  await ctx.close()
})
