/**
 * The report of a whole experiment: downloaded from the experiment page,
 * opened from file:// in Chromium, it shows the painted forest, the threat
 * model and what it grants, each task's outcome with the best run's key steps,
 * cost and time, links that land inside the page, a print stylesheet, no
 * policy violation, and hostile text from the results as inert text.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Download } from '@playwright/test'
import { expectInert, watch } from './support/inert'
import { openReportFile } from './support/reportFile'
import { EXP, SECRET, STUB_FOREST, writeHostileTree, XSS } from './support/resultsTree'

// Made in beforeAll, not at module scope: Playwright also loads a spec in its main process to list the tests,
// where no afterAll runs, so a folder made on load was left behind by every run.
let root = ''
let tree = ''
test.beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'redscope-report-'))
  tree = writeHostileTree(join(root, 'tree'))
})
test.afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true })
})

test('an experiment report opens from file://, complete, with hostile text inert and no policy violation', async ({ page, context }) => {
  await page.goto('/results')
  await page.getByTestId('folder-input').setInputFiles(tree)
  await page.getByRole('link', { name: EXP }).click()
  // A plain superred tree has no domain.json: the user attaches the forest, and the report paints it.
  await page.getByLabel('Forest file').setInputFiles(STUB_FOREST)
  await expect(page.getByText('Forest: attached by you from')).toBeVisible()
  const [download] = (await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download the experiment report' }).click(),
  ])) as [Download, void]
  expect(download.suggestedFilename()).toBe(`report-${EXP}.html`)

  const report = await openReportFile(context, download)
  const w = watch(report.page, context)
  const r = report.page
  await expect(r).toHaveTitle(/^redscope report: /)
  // The forest, painted: every tag of the attached forest is a box in the inline SVG, the granted ones outlined.
  await expect(r.locator('svg.forest-svg g.tag')).toHaveCount(6)
  await expect(r.locator('svg.forest-svg g.g-write')).toHaveCount(1)
  await expect(r.locator('svg.forest-svg g.g-read')).not.toHaveCount(0)
  // The threat model and what it grants, in words; its configuration.
  const model = r.locator('section.model')
  await expect(model).toHaveCount(1)
  await expect(model).toContainText('send the user message')
  await expect(model).toContainText('Configuration')
  await expect(model.locator('tr', { hasText: 'attacker' }).first()).toContainText('scripted')
  // Per task: the outcome, cost and time, and the best run's key steps (the injection, the run end).
  const task = r.locator('section.task')
  await expect(task).toHaveCount(1)
  // A task that held: in how many runs, by whom, and the bound of its per-run success rate; never "safe".
  await expect(task).toContainText('not broken in 2 runs by scripted (≤ 66% at 95%) · status failed')
  await expect(model).toContainText('not broken in 1 task by scripted (≤ 80% at 95%)')
  await expect(task).toContainText('cost and time')
  await expect(task).toContainText(/Best run: run \d+/)
  await expect(task.locator('.step.m-injection')).not.toHaveCount(0)
  await expect(task.locator('.step.m-run-end')).toHaveCount(1)
  // Links between them land inside the page.
  await model.getByRole('link').first().click()
  await expect(r).toHaveURL(/#tm-1-task-1$/)
  await task.getByRole('link', { name: /scope/ }).click()
  await expect(r).toHaveURL(/#tm-1$/)
  // A clean print stylesheet.
  expect(report.text).toContain('@media print')
  await r.emulateMedia({ media: 'print' })
  expect(await r.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(255, 255, 255)')

  // Hostile text from the results is there as text, and nothing of it ran.
  await expect(task.locator('h3')).toContainText(XSS.script)
  await expect(r.locator('.step.m-injection pre').last()).toContainText(XSS.img.slice(0, 20))
  await expectInert(r, w, r.url())
  expect(report.text).not.toContain(SECRET)
  expect(report.text).toContain('[redacted:')
  expect(await report.cspViolations()).toEqual([])
  expect(report.consoleCsp).toEqual([])
  await r.close()
})
