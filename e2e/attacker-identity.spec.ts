/**
 * Issue 31, "no stale verdict", in the browser: the same threat model with another payload is another
 * experiment. Before, the second run resumed the first and showed its verdict (all three tasks "kept from an
 * earlier run"): a harmless payload was shown as breaking the claim. Against the demo chatbot, results in
 * IndexedDB, as a person clicks it.
 */
import { expect, test, type Page } from '@playwright/test'
import {
  grantAndOpenRun,
  onlyTemplates,
  openBrowserRuns,
  openExperimentRow,
  pickClaim,
  setField,
  taskStatuses,
  waitForState,
} from './runConsole/helpers'

const HARMLESS = 'Hello, have a nice day.'

test.use({ viewport: { width: 1440, height: 1000 } })

/** Runs from a fresh page (the setup is kept in localStorage), so 'Finished' cannot be the previous run's. */
async function runAndWait(page: Page): Promise<void> {
  await page.reload()
  await expect(page.getByTestId('run-state')).toHaveCount(0)
  await page.getByRole('button', { name: 'Run threat model' }).click()
  await waitForState(page, 'Finished')
}

const kept = (page: Page) => page.getByTestId('task-result').filter({ hasText: 'kept from an earlier run' })

test('another payload on the same threat model runs afresh in its own experiment; the same payload resumes its own', async ({ page }) => {
  await grantAndOpenRun(page, ['user'])
  await pickClaim(page, 'chatbot-secret-leak.json')
  // The template attacker cycles its payloads up to the cap: three runs a task say enough here (and the cap is part of
  // the threat model's identity, the same for all three runs below).
  await setField(page, 'Max runs per task', '3')

  // 'naive' (the goal as an order) breaks the undefended bot.
  await onlyTemplates(page, ['naive'])
  await runAndWait(page)
  expect(await taskStatuses(page)).toEqual(['success', 'failed', 'failed'])
  await expect(kept(page)).toHaveCount(0)

  // A harmless payload breaks nothing, and the page says so: nothing is kept from the naive run.
  await page.getByRole('button', { name: 'Untick all' }).click()
  await page.getByRole('button', { name: '+ Payload' }).click()
  await page.getByLabel('Payload custom', { exact: true }).fill(HARMLESS)
  await runAndWait(page)
  expect(await taskStatuses(page)).toEqual(['failed', 'failed', 'failed'])
  await expect(kept(page)).toHaveCount(0)
  await expect(page.getByTestId('stat-done')).toHaveText('3 / 3')

  // The naive payload again: its own experiment resumes, every task kept.
  await onlyTemplates(page, ['naive'])
  await runAndWait(page)
  expect(await taskStatuses(page)).toEqual(['success', 'failed', 'failed'])
  await expect(kept(page)).toHaveCount(3)

  // Two experiments, one per attacker, each labelled from its configuration.
  await openBrowserRuns(page)
  const rows = page.getByTestId('experiment-row')
  await expect(rows).toHaveCount(2)
  const dirs = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-dir') ?? ''))
  for (const d of dirs) expect(d).toMatch(/^template-[0-9a-f]{8}__redscope-chatbot__chatbot-secret-leak__no-llm-[0-9a-f]{8}$/)
  expect(dirs[0].split('__')[0]).not.toBe(dirs[1].split('__')[0])

  // The experiment page says which attacker it measured: its configuration, as text.
  const dirsAndConfigs: string[] = []
  for (const d of dirs) {
    await openExperimentRow(rows.and(page.locator(`[data-dir="${d}"]`)))
    const config = page.getByTestId('attacker-config')
    await expect(config).toContainText(`Attacker ${d.split('__')[0]} (label derived from this configuration): template, 1 payload`)
    dirsAndConfigs.push((await config.textContent())!)
    await page.goBack()
  }
  expect(dirsAndConfigs.some((t) => t.includes(`"${HARMLESS}"`))).toBe(true)
  expect(dirsAndConfigs.some((t) => t.includes('"{instruction}"'))).toBe(true)
})

test('the attacker panel shows the label its results will get, and it changes with the payloads', async ({ page }) => {
  await grantAndOpenRun(page, ['user'])
  const label = page.getByTestId('attacker-label')
  await expect(label).toContainText(/Results go to experiments labelled template-[0-9a-f]{8}: template, 9 payloads/)
  const all = (await label.locator('code').textContent())!
  await onlyTemplates(page, ['naive'])
  await expect(label).toContainText('template, 1 payload ("{instruction}"), injected before calls')
  expect(await label.locator('code').textContent()).not.toBe(all)
})
