/**
 * A headless sweep run as two shards by the CLI, merged with `redscope
 * merge`, opened as a folder in the viewer: the tree says it holds a sweep,
 * and the sweep is painted as the run console paints one it ran (summary,
 * forest, grid), each row opening its experiment in the viewer.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Download } from '@playwright/test'
import { CliProcesses } from '../src/testing/cliProcesses'
import { openReportFile } from './support/reportFile'

const procs = new CliProcesses()
// Made in beforeAll, not at module scope: Playwright also loads a spec in its main process to list the tests,
// where no afterAll runs, so a folder made on load was left behind by every run.
let dir = ''
let merged = ''

test.beforeAll(async () => {
  test.setTimeout(180_000)
  dir = mkdtempSync(join(tmpdir(), 'redscope-sweep-e2e-'))
  merged = join(dir, 'merged')
  const target = procs.start(['serve-target', 'assistant', '--port', '0'])
  const url = (await target.waitFor(/serving assistant at (http:\/\/127\.0\.0\.1:\d+)/))[1]
  const shards = [0, 1].map((i) =>
    procs.start([
      'sweep',
      '--target',
      url,
      '--claim',
      'public/claims/assistant-exfiltration.json',
      '--containing',
      'inbox,user',
      '--template',
      'naive',
      '--max-runs',
      '1',
      '--shard',
      `${i}/2`,
      '--out',
      join(dir, `shard-${i}`),
    ]),
  )
  for (const s of shards) expect(await s.exited, s.stderr()).toBe(0)
  const merge = procs.start(['merge', join(dir, 'shard-0'), join(dir, 'shard-1'), '--out', merged])
  expect(await merge.exited, merge.stderr()).toBe(0)
  await procs.stopAll()
})

test.afterAll(async () => {
  await procs.stopAll()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

test('a merged sweep opened as a folder is painted like a sweep run in the browser, and its rows open their experiments', async ({
  page,
}) => {
  await page.goto('/results')
  await page.getByTestId('folder-input').setInputFiles(merged)
  const banner = page.getByTestId('sweep-banner')
  await expect(banner).toContainText(
    'This folder holds a sweep: Sweep of 72 threat models: assistant-exfiltration against redscope-assistant (merged from 2 of 2 shards).',
  )
  await banner.getByRole('link', { name: 'Open the sweep' }).click()

  await expect(page.getByTestId('sweep-summary')).toHaveText(
    /^72 of 72 threat models complete · 72 broke the claim · ASR \d+% \(\d+ of 288 tasks, 95% CI \d+–\d+%\)$/,
  )
  await expect(page.getByTestId('sweep-note')).toHaveText('Merged from 2 of 2 shards')
  await expect(page.getByRole('navigation', { name: 'Breadcrumbs' })).toHaveText('merged / sweep')
  await expect(page.getByRole('figure', { name: 'What each tag contributes' })).toBeVisible()
  await expect(page.getByRole('img', { name: 'Forest painted with what each tag contributes' })).toBeVisible()
  // Every model holds inbox and user: no model without them, so nothing to compare (never painted as a success).
  for (const t of ['inbox', 'user']) {
    await expect(page.locator(`[data-testid=forest-tag][data-tag=${t}]`)).toHaveAttribute('data-effect', 'unknown')
    await expect(page.locator(`[data-testid=forest-tag][data-tag=${t}]`)).toHaveAttribute('data-without', '0/0')
    await expect(page.locator(`[data-testid=forest-tag][data-tag=${t}]`)).toHaveAttribute('data-with', /^\d+\/288$/)
  }
  await expect(page.getByTestId('sweep-asr').first()).toHaveText(/^\d\/4 \((\d+–\d+%|≤ \d+%)\)$/)
  const rows = page.getByTestId('sweep-row')
  await expect(rows.first()).toBeVisible()
  await expect(page.getByRole('table', { name: 'Sweep results' })).toHaveAttribute('aria-rowcount', '73')

  const first = rows.first()
  const experiment = await first.getAttribute('data-dir')
  await first.getByRole('link', { name: 'open' }).click()
  await expect(page).toHaveURL(new RegExp(`/results/${experiment}\\?src=`))
  await expect(page.getByRole('heading', { level: 2 })).toContainText(/template-[0-9a-f]{8} → redscope-assistant · assistant-exfiltration/)
})

test('the sweep view downloads a report of the whole sweep that opens from file:// with every threat model, linked to its tasks', async ({
  page,
  context,
}) => {
  test.setTimeout(90_000)
  await page.goto('/results')
  await page.getByTestId('folder-input').setInputFiles(merged)
  await page.getByTestId('sweep-banner').getByRole('link', { name: 'Open the sweep' }).click()
  const [download] = (await Promise.all([
    page.waitForEvent('download', { timeout: 60_000 }),
    page.getByRole('button', { name: 'Download the sweep report' }).click(),
  ])) as [Download, void]
  expect(download.suggestedFilename()).toMatch(/^report-sweep-Sweep_of_72_threat_models.*\.html$/)
  const report = await openReportFile(context, download)
  const r = report.page
  await expect(r.locator('h1')).toHaveText('Sweep of 72 threat models: assistant-exfiltration against redscope-assistant')
  await expect(r.locator('section.model')).toHaveCount(72)
  await expect(r.locator('section.task')).toHaveCount(288)
  // The forest painted as the page paints it: inbox and user are granted by every model, so nothing to compare.
  await expect(
    r.locator('svg.forest-svg g.tag title', {
      hasText: /^inbox.*threat models that grant it: 72, .*that do not: 0, .*nothing to compare\.$/,
    }),
  ).toHaveCount(1)
  await expect(r.locator('.card').filter({ hasText: 'attack success' }).first()).toContainText(/\d+% \(\d+ of 288 tasks, 95% CI \d+–\d+%\)/)
  // Each model links to its tasks and each task back to its model.
  const firstModel = r.locator('section.model').first()
  const taskLinks = firstModel.getByRole('link')
  await expect(taskLinks).toHaveCount(4)
  await taskLinks.first().click()
  await expect(r).toHaveURL(/#tm-1-task-\d+$/)
  expect(await report.cspViolations()).toEqual([])
  expect(report.consoleCsp).toEqual([])
  await r.close()
})
