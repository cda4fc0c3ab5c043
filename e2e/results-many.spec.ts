/**
 * A sweep leaves hundreds of experiments: the list draws only the rows in view,
 * scrolls through all of them, and its filter reaches any.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { FIXTURE } from './support/resultsTree'
import { startView, type RunningView } from './support/viewServer'

const COUNT = 600
let dir: string
let server: RunningView | undefined
test.beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'redscope-many-e2e-'))
})
test.afterEach(async () => {
  await server?.stop()
  rmSync(dir, { recursive: true, force: true })
})

/** experiments.json naming COUNT experiments, each with its own granted tag and a completion a minute apart. */
function manyExperiments(root: string) {
  const index = JSON.parse(readFileSync(join(FIXTURE, 'experiments.json'), 'utf8'))
  const [first] = index.experiments
  index.experiments = Array.from({ length: COUNT }, (_, i) => {
    const n = String(i).padStart(4, '0')
    return {
      ...first,
      dir: `exp-${n}`,
      hash: n,
      experiment: { ...first.experiment, scope: [`tag-${n}`], read_only: [] },
      completed_at: new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString(),
    }
  })
  writeFileSync(join(root, 'experiments.json'), JSON.stringify(index))
}

test('600 experiments: only the rows in view are drawn, the newest first, the oldest reached by scrolling and by filter', async ({
  page,
}) => {
  manyExperiments(dir)
  server = await startView([dir, '--port', '0'])
  await page.goto(server.url)
  await expect(page.getByRole('heading', { name: /Experiments in/ })).toContainText(`(${COUNT})`)
  const rows = page.getByTestId('experiment-row')
  await expect(rows.first()).toHaveAttribute('data-dir', `exp-${String(COUNT - 1).padStart(4, '0')}`)
  const drawn = await rows.count()
  expect(drawn).toBeGreaterThan(5)
  expect(drawn).toBeLessThan(100)

  await page.locator('.experiments-scroll').evaluate((el) => {
    el.scrollTop = el.scrollHeight
  })
  await expect(page.locator('[data-testid="experiment-row"][data-dir="exp-0000"]')).toBeVisible()
  expect(await rows.count()).toBeLessThan(100)

  await page.locator('.experiments-scroll').evaluate((el) => {
    el.scrollTop = 0
  })
  await page.getByLabel('Filter experiments').fill('tag-0123')
  await expect(rows).toHaveCount(1)
  await expect(rows.getByRole('link').first()).toHaveText('tag-0123')
})
