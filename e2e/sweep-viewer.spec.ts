/**
 * A headless sweep run as two shards by the CLI, merged with `redscope
 * merge`, opened as a folder in the viewer: the tree says it holds a sweep,
 * and the sweep is painted as the run console paints one it ran (summary,
 * forest, grid), each row opening its experiment in the viewer.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { CliProcesses } from '../src/testing/cliProcesses'

const procs = new CliProcesses()
const dir = mkdtempSync(join(tmpdir(), 'redscope-sweep-e2e-'))
const merged = join(dir, 'merged')

test.beforeAll(async () => {
  test.setTimeout(180_000)
  const target = procs.start(['serve-target', 'assistant', '--port', '0'])
  const url = (await target.waitFor(/serving assistant at (http:\/\/127\.0\.0\.1:\d+)/))[1]
  const shards = [0, 1].map((i) => procs.start(['sweep', '--target', url, '--claim', 'public/claims/assistant-exfiltration.json',
    '--containing', 'inbox,user', '--template', 'naive', '--max-runs', '1', '--shard', `${i}/2`, '--out', join(dir, `shard-${i}`)]))
  for (const s of shards) expect(await s.exited, s.stderr()).toBe(0)
  const merge = procs.start(['merge', join(dir, 'shard-0'), join(dir, 'shard-1'), '--out', merged])
  expect(await merge.exited, merge.stderr()).toBe(0)
  await procs.stopAll()
})

test.afterAll(async () => {
  await procs.stopAll()
  rmSync(dir, { recursive: true, force: true })
})

test('a merged sweep opened as a folder is painted like a sweep run in the browser, and its rows open their experiments', async ({ page }) => {
  await page.goto('/results')
  await page.getByTestId('folder-input').setInputFiles(merged)
  const banner = page.getByTestId('sweep-banner')
  await expect(banner).toContainText('This folder holds a sweep: Sweep of 72 threat models: assistant-exfiltration against redscope-assistant (merged from 2 of 2 shards).')
  await banner.getByRole('link', { name: 'Open the sweep' }).click()

  await expect(page.getByTestId('sweep-summary')).toHaveText(/^72 of 72 threat models complete · 72 broke the claim · ASR \d+% over 288 completed tasks$/)
  await expect(page.getByTestId('sweep-note')).toHaveText('Merged from 2 of 2 shards')
  await expect(page.getByRole('navigation', { name: 'Breadcrumbs' })).toHaveText('merged / sweep')
  await expect(page.getByRole('figure', { name: 'Success rate per tag' })).toBeVisible()
  // Every model holds inbox and user: both are painted with all 72 models.
  await expect(page.getByRole('img', { name: 'Forest painted with success rates' })).toBeVisible()
  const rows = page.getByTestId('sweep-row')
  await expect(rows.first()).toBeVisible()
  await expect(page.getByRole('table', { name: 'Sweep results' })).toHaveAttribute('aria-rowcount', '73')

  const first = rows.first()
  const experiment = await first.getAttribute('data-dir')
  await first.getByRole('link', { name: 'open' }).click()
  await expect(page).toHaveURL(new RegExp(`/results/${experiment}\\?src=`))
  await expect(page.getByRole('heading', { level: 2 })).toContainText('template → redscope-assistant · assistant-exfiltration')
})
