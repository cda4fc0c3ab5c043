import { expect, type Locator, type Page } from '@playwright/test'

/** Grants tags read & write in the designer's current workspace (clicks in Pick scope mode), then opens the run console. */
export async function grantAndOpenRun(page: Page, tags: readonly string[]): Promise<void> {
  await page.goto('/')
  await expect(page.locator('.react-flow__node').first()).toBeVisible()
  if (tags.length > 0) {
    await page.getByRole('radio', { name: 'Pick scope' }).click()
    for (const t of tags) {
      const node = page.getByRole('group', { name: t, exact: true })
      await node.click()
      await expect(node).toHaveAttribute('data-access', 'scope')
    }
  }
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Run', exact: true }).click()
  await expect(page.getByRole('group', { name: 'Target' })).toBeVisible()
}

/** Connects the console to a Target-over-HTTP server by URL and waits for its manifest to show `name`. */
export async function connectTargetUrl(page: Page, url: string, name: string): Promise<void> {
  await page.getByRole('radio', { name: 'Target URL' }).click()
  await page.getByLabel('Target-over-HTTP server').fill(url)
  await page.getByRole('button', { name: 'Test connection' }).click()
  await expect(page.getByTestId('manifest')).toContainText(name)
}

export async function pickClaim(page: Page, file: string): Promise<void> {
  await page.getByLabel(/^Shipped claim/).selectOption(file)
  await expect(page.getByRole('list', { name: 'Tasks of the claim' })).toBeVisible()
}

export async function onlyTemplates(page: Page, names: readonly string[]): Promise<void> {
  await page.getByRole('button', { name: 'Untick all' }).click()
  for (const n of names) await page.getByLabel(`Use payload ${n}`).check()
}

export async function setField(page: Page, label: string | RegExp, value: string): Promise<void> {
  const input = page.getByLabel(label, { exact: typeof label === 'string' })
  await input.fill(value)
}

export async function waitForState(page: Page, state: string, timeout = 30_000): Promise<void> {
  await expect(page.getByTestId('run-state')).toHaveText(state, { timeout })
}

/** Task result chips of the (only) lane, by task number. */
export async function taskStatuses(page: Page): Promise<string[]> {
  return page.getByTestId('task-result').evaluateAll((els) => els.map((e) => e.getAttribute('data-status') ?? ''))
}

/** The Results tab, from the top bar: with no served folder it lands on this browser's runs (the one list of runs). */
export async function openBrowserRuns(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Results', exact: true }).click()
  await expect(page.getByRole('heading', { name: /^Experiments in this browser's runs/ })).toBeVisible()
}

/** Opens an experiment row's page in the viewer by its folder link (the row's data-dir). */
export async function openExperimentRow(row: Locator): Promise<void> {
  const dir = await row.getAttribute('data-dir')
  expect(dir).toBeTruthy()
  await row.getByRole('link', { name: dir!, exact: true }).click()
}
