/**
 * A run in the browser loses no finished task when the page goes away in the
 * middle: after a reload, and after a renderer crash (CDP Page.crash), the
 * tasks that had finished are in IndexedDB and open in the viewer, and the
 * same run started again resumes: finished tasks are kept, not rerun. And a
 * run whose results cannot be saved (storage full) says so on its lane.
 */
import { expect, test, type Page } from '@playwright/test'
import { startScriptedTarget, type ScriptedTarget } from '../src/testing/scriptedTarget'
import {
  connectTargetUrl,
  grantAndOpenRun,
  onlyTemplates,
  openExperimentRow,
  setField,
  taskStatuses,
  waitForState,
} from './runConsole/helpers'

test.use({ viewport: { width: 1440, height: 1000 } })

/** Four tasks on a one-session target: two quick, then two that take 20 s each (never reached before the page goes). */
async function setUpRun(page: Page, target: ScriptedTarget, label: string) {
  await grantAndOpenRun(page, ['user'])
  await connectTargetUrl(page, target.url, 'scripted')
  await page.getByRole('button', { name: 'Write tasks…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Claim tasks' })
  const rows = dialog.getByTestId('claim-task')
  for (const [i, mode] of ['ok', 'ok', 'slow', 'slow'].entries()) {
    if (i > 0) await dialog.getByRole('button', { name: '+ Task' }).click()
    await rows
      .nth(i)
      .getByLabel('Goal')
      .fill(`${label} task ${i + 1}`)
    await rows.nth(i).getByLabel('Config (name=value per line)').fill(`mode=${mode}`)
    await rows.nth(i).getByLabel('Evaluator').selectOption('trajectory_match')
    await rows.nth(i).getByLabel('Observable').fill('reply')
    await rows.nth(i).getByLabel('Pattern (regex)').fill('^echo')
  }
  await expect(dialog.getByRole('status')).toHaveText('✓ 4 valid tasks')
  await dialog.getByRole('button', { name: 'Done' }).click()
  await onlyTemplates(page, ['naive'])
  await setField(page, 'Max runs per task', '1')
}

/** The experiment in the Results tab's list of this browser's runs: in progress, with the finished tasks counted. */
async function expectKept(page: Page, outcome: string) {
  await page.goto('/results')
  const row = page.getByTestId('experiment-row')
  await expect(row).toHaveCount(1)
  await expect(row).toContainText(outcome)
  await openExperimentRow(row)
  for (const t of [1, 2]) {
    const link = page.getByRole('link', { name: new RegExp(`task ${t}$`) })
    await link.click()
    await page.getByRole('link', { name: 'Run 1', exact: true }).click()
    await expect(page.getByRole('grid', { name: /Trajectory/ })).toContainText('echo')
    await page.goBack()
    await page.goBack()
  }
}

for (const how of ['reload', 'crash'] as const) {
  test(`a ${how} in the middle of a run keeps every finished task, and the run resumes`, async ({ page, context }) => {
    test.setTimeout(60_000)
    const target = await startScriptedTarget({ concurrency: 1, slowMs: 20_000 })
    try {
      await setUpRun(page, target, how)
      await page.getByRole('button', { name: 'Run threat model' }).click()
      await expect(page.getByTestId('task-result')).toHaveCount(2)
      expect(await taskStatuses(page)).toEqual(['success', 'success'])
      // Task 3 is in flight on the target, waiting 20 s.
      await expect.poll(() => target.sessions.length).toBe(3)

      let view = page
      if (how === 'reload') {
        await page.reload()
      } else {
        const cdp = await context.newCDPSession(page)
        const crashed = page.waitForEvent('crash')
        void cdp.send('Page.crash').catch(() => undefined)
        await crashed
        view = await context.newPage()
      }
      await expectKept(view, 'in progress: 2 of 2 so far') // 2 successful of 2 completed, while 4 are planned

      // The target behaves now; the same run again keeps tasks 1-2 and runs only 3 and 4.
      target.heal()
      const before = target.sessions.length
      await view.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Run', exact: true }).click()
      await view.getByRole('button', { name: 'Run threat model' }).click()
      await waitForState(view, 'Finished')
      expect(await taskStatuses(view)).toEqual(['success', 'success', 'success', 'success'])
      expect(target.sessions.length - before).toBe(2)
    } finally {
      await target.close()
    }
  })
}

test('a run whose results the storage refuses (QuotaExceededError) says so on its lane, not only "success"', async ({ page }) => {
  // The storage fills up while task 2 is being written: its puts throw QuotaExceededError, as a full disk makes them.
  await page.addInitScript(() => {
    const put = IDBObjectStore.prototype.put
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      if (
        (window as unknown as { __quotaFull?: boolean }).__quotaFull &&
        this.transaction.db.name === 'redscope-results' &&
        String(args[1]).includes('/tasks/00002__')
      ) {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError')
      }
      return put.apply(this, args)
    }
  })
  // Tasks 3 and 4 stay in flight until the run is cancelled: at the default 300 ms each they could both finish
  // between two polls of the count below (seen once in CI: 1, 3, then 4 task results).
  const target = await startScriptedTarget({ concurrency: 1, slowMs: 20_000 })
  try {
    await setUpRun(page, target, 'full')
    await page.evaluate(() => ((window as unknown as { __quotaFull?: boolean }).__quotaFull = true))
    await page.getByRole('button', { name: 'Run threat model' }).click()
    // The attack itself is unaffected (both tasks succeed); the lane says task 2's results were not saved.
    await expect(page.getByTestId('task-result')).toHaveCount(2)
    expect(await taskStatuses(page)).toEqual(['success', 'success'])
    await expect(page.locator('.rc-problems').first()).toContainText(
      'Not saved (task 2): failed to persist task (continuing): QuotaExceededError',
    )
    await page.getByRole('button', { name: 'Cancel run' }).click()
  } finally {
    await target.close()
  }
})
