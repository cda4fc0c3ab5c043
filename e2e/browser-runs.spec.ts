/**
 * One list of runs: a run made in the run console is listed on the Results
 * tab (which lands on this browser's runs), downloads from there as a zip of
 * its superred tree, one experiment or a selection, and the old address of the
 * run console's own list (/run/results) still lands there.
 */
import { expect, test, type Download } from '@playwright/test'
import { readFileSync } from 'node:fs'
import { strFromU8, unzipSync } from 'fflate'
import { grantAndOpenRun, onlyTemplates, openBrowserRuns, pickClaim, waitForState, taskStatuses } from './runConsole/helpers'

test.use({ viewport: { width: 1440, height: 1000 } })

async function zipEntries(download: Download): Promise<Record<string, Uint8Array>> {
  return unzipSync(new Uint8Array(readFileSync((await download.path())!)))
}

/** The experiment's tree in the zip: the index naming it, its manifest and result, and every task's task.json. */
function expectTree(files: Record<string, Uint8Array>, dir: string, tasks: number) {
  const names = Object.keys(files)
  const top = names[0].split('/')[0]
  const index = JSON.parse(strFromU8(files[`${top}/experiments.json`])) as {
    experiments: Array<{ dir: string; summary: { n_success: number } }>
  }
  expect(index.experiments.map((e) => e.dir)).toEqual([dir])
  expect(index.experiments[0].summary.n_success).toBe(1)
  expect(names).toContain(`${top}/${dir}/manifest.json`)
  expect(names).toContain(`${top}/${dir}/result.json`)
  expect(names.filter((n) => n.startsWith(`${top}/${dir}/tasks/`) && n.endsWith('/task.json'))).toHaveLength(tasks)
  expect(names.some((n) => /\/run_00001\.json$/.test(n))).toBe(true)
}

test('a run from the console is on the Results tab, downloads as its tree, and /run/results lands there', async ({ page }) => {
  await grantAndOpenRun(page, ['user'])
  await pickClaim(page, 'chatbot-secret-leak.json')
  await onlyTemplates(page, ['naive'])
  await page.getByRole('button', { name: 'Run threat model' }).click()
  await waitForState(page, 'Finished')
  expect(await taskStatuses(page)).toEqual(['success', 'failed', 'failed'])
  // The run console keeps no list of its own any more.
  await expect(page.getByRole('navigation', { name: 'Run console' }).getByRole('link')).toHaveText([
    'Run a threat model',
    'Sweep threat models',
  ])

  await openBrowserRuns(page)
  const row = page.getByTestId('experiment-row')
  await expect(row).toHaveCount(1)
  await expect(row).toContainText('redscope-chatbot')
  await expect(row).toContainText('33% (1 of 3 tasks, 95% CI 6–80%)')
  const dir = (await row.getAttribute('data-dir'))!
  // The extra columns of this browser's runs (select, cost, zip) still fit the window.
  const table = page.locator('table.experiments-table')
  const box = (await table.boundingBox())!
  expect(box.x + box.width).toBeLessThanOrEqual(1440)
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(1440)

  // One experiment's zip.
  const [one] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: `Download ${dir} as a zip` }).click()])
  expect(one.suggestedFilename()).toMatch(/\.zip$/)
  expectTree(await zipEntries(one), dir, 3)

  // A selection: nothing chosen, nothing to download; one ticked, its tree.
  const selected = page.getByRole('button', { name: 'Download selected (.zip)' })
  await expect(selected).toBeDisabled()
  await row.getByRole('checkbox', { name: `Select ${dir}` }).check()
  const [chosen] = await Promise.all([page.waitForEvent('download'), selected.click()])
  expect(chosen.suggestedFilename()).toBe('redscope-results.zip')
  expectTree(await zipEntries(chosen), dir, 3)

  // A bookmark of the old list lands on the same list.
  await page.goto('/run/results')
  await expect(page).toHaveURL(/\/results\?src=idb%3Aredscope-results$/)
  await expect(page.getByTestId('experiment-row')).toHaveCount(1)
  await expect(page.getByTestId('experiment-row')).toHaveAttribute('data-dir', dir)
})
