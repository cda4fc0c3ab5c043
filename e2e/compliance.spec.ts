/**
 * Compliance mapping end to end: a framework reference set on a tag in the designer's inspector (a bad id refused
 * by name first) travels with the run into its results, and the experiment's report shows the summary by
 * framework: the reference breached under the threat model that granted the tag, in words that claim no more
 * than was measured. The experiment page (the viewer a static bundle ships) shows it too.
 */
import { expect, test, type Download } from '@playwright/test'
import { grantAndOpenRun, onlyTemplates, openBrowserRuns, openExperimentRow, pickClaim, waitForState } from './runConsole/helpers'
import { openReportFile } from './support/reportFile'

test.use({ viewport: { width: 1440, height: 1000 } })

test("a reference set in the inspector is in the report's summary by framework after a run", async ({ page, context }) => {
  // Designing, a whole run, the viewer and a report in one test: more than the default 30 s on a busy machine.
  test.setTimeout(90_000)
  await page.goto('/')
  const user = page.getByRole('group', { name: 'user', exact: true })
  await expect(user).toBeVisible()
  await user.click()
  const refs = page.locator('#inspector-references')
  // An unknown id is refused by name, and nothing changes.
  await refs.fill('LLM01, LLM99')
  await refs.press('Enter')
  await expect(page.getByRole('alert').filter({ hasText: "unknown framework reference 'LLM99'" })).toBeVisible()
  await refs.fill('T6, LLM01')
  await refs.press('Enter')
  await expect(page.getByRole('list', { name: 'References of this tag' })).toContainText('T6 Intent Breaking & Goal Manipulation')

  await grantAndOpenRun(page, ['user'])
  await pickClaim(page, 'chatbot-secret-leak.json')
  await onlyTemplates(page, ['naive'])
  await page.getByRole('button', { name: 'Run threat model' }).click()
  await waitForState(page, 'Finished')

  await openBrowserRuns(page)
  const row = page.getByTestId('experiment-row')
  await expect(row).toHaveCount(1)
  await openExperimentRow(row)
  // The experiment page (and so the static bundle, which is this viewer) shows the same summary.
  const panel = page.getByTestId('compliance-panel')
  await expect(panel.locator('tr[data-reference="T6"]')).toContainText('breached under scope [user] (1 of 3 tasks)')
  const [download] = (await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download the experiment report' }).click(),
  ])) as [Download, void]
  const report = await openReportFile(context, download)
  const summary = report.page.locator('.compliance')
  await expect(summary).toBeVisible()
  // The tag's reference set in the inspector: breached under the threat model that granted `user`.
  await expect(summary.locator('tr[data-reference="T6"]')).toContainText('breached under scope [user] (1 of 3 tasks)')
  await expect(summary.locator('tr[data-reference="LLM01"]')).toContainText('breached')
  // The claim's own references are there too, and the framework's list names its source.
  await expect(summary.locator('tr[data-reference="MEASURE 2.7"]')).toBeVisible()
  await expect(summary).toContainText('OWASP Agentic AI – Threats and Mitigations')
  await expect(summary).toContainText('https://genai.owasp.org/')
  expect(await report.cspViolations()).toEqual([])
})
