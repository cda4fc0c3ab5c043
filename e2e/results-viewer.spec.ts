import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { expect, test, type Page } from '@playwright/test'
import { serveFolder } from './support/staticServer'
import {
  addSecondExperiment,
  copyFixture,
  EXP,
  FIXTURE,
  putTreeInBrowser,
  TASK_DIR,
  SECRET,
  STUB_FOREST,
  TASK,
  writeHostileTree,
  XSS,
  zipFolder,
} from './support/resultsTree'

/** A viewer address: links carry the step number people see (1-based), as the rows, the panel and the export show it. */
const runUrl = (src: string, run: number, step?: number) =>
  `/results/${EXP}/${TASK}/${run}${step === undefined ? '' : `/${step}`}?src=${encodeURIComponent(src)}`

async function openFolder(page: Page, dir: string) {
  await page.goto('/results')
  await page.getByTestId('folder-input').setInputFiles(dir)
  await expect(page.getByRole('link', { name: EXP })).toBeVisible()
}

async function openRun(page: Page, run: number) {
  await page.getByRole('link', { name: EXP }).click()
  await page.getByRole('link', { name: /^leak/ }).click()
  await page.getByRole('link', { name: `Run ${run}`, exact: true }).click()
  await expect(page.getByRole('grid', { name: /Trajectory/ })).toBeVisible()
}

const selected = (page: Page) => page.locator('[role="row"][aria-selected="true"]')
const row = (page: Page, event: number) => page.locator(`[role="row"][data-event="${event}"]`)

/** Fails the test if any payload ever runs: a dialog opens, or the page's global is set. */
function guard(page: Page) {
  const dialogs: string[] = []
  page.on('dialog', (d) => {
    dialogs.push(d.message())
    void d.dismiss()
  })
  return {
    dialogs,
    pwned: () => page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned ?? null),
  }
}

test('opens the superred tree by folder, steps by keyboard, and shows a hidden row as a gap', async ({ page }) => {
  await openFolder(page, FIXTURE)
  await openRun(page, 1)
  // No domain.json in a plain superred tree: the viewer says it is guessing.
  await expect(page.getByTestId('names-only-warning')).toContainText('Names only')
  await expect(page.locator('[role="row"]')).toHaveCount(15) // 14 events + the header row
  await expect(selected(page)).toHaveAttribute('data-event', '0')

  await page.keyboard.press('j')
  await page.keyboard.press('ArrowDown')
  await expect(selected(page)).toHaveAttribute('data-event', '2')
  // Item 2 is step 3, in the address as on the row.
  await expect(page).toHaveURL(new RegExp(`/${TASK}/1/3\\?`))
  await expect(selected(page).locator('.traj__index')).toHaveText('3')
  await page.keyboard.press('n') // next injection
  await expect(selected(page)).toHaveAttribute('data-event', '3')
  await expect(selected(page)).toContainText('INJ:user_msg')
  await page.keyboard.press('k')
  await expect(selected(page)).toHaveAttribute('data-event', '2')

  // The inbox read (event 5) was outside the grant: a gap on the attacker's side, explained on click.
  await expect(row(page, 5)).toHaveAttribute('data-hidden', 'true')
  await expect(row(page, 5).locator('[data-gap="true"]')).toHaveText('hidden from the attacker')
  await expect(row(page, 2).locator('[data-gap="true"]')).toHaveCount(0)
  await row(page, 5).click()
  await expect(page.getByRole('complementary', { name: 'Selected step' })).toContainText('No granted tag covers "inbox"')

  await page.keyboard.press(']') // next run
  await expect(page).toHaveURL(new RegExp(`/${TASK}/2/1\\?`))
  await expect(page.getByText('← run 1')).toBeVisible()

  // The scrubber seeks too.
  await page.getByRole('slider', { name: 'Position in the run' }).fill('13')
  await expect(selected(page)).toHaveAttribute('data-event', '13')
  await expect(selected(page)).toContainText('run end')
})

test('attaching the forest replaces the names-only guess with real coverage', async ({ page }) => {
  await openFolder(page, FIXTURE)
  await openRun(page, 1)
  // Names only: system_prompt is not granted by name, so it looks hidden.
  await expect(row(page, 0)).toHaveAttribute('data-hidden', 'true')
  await page.getByLabel('Forest file').setInputFiles(STUB_FOREST)
  await expect(page.getByText('Forest: attached by you from')).toBeVisible()
  // system (read only) covers system_prompt: visible, read-only, still auto-declined.
  await expect(row(page, 0)).toHaveAttribute('data-hidden', 'false')
  await expect(row(page, 0)).toContainText('read-only')
  await expect(row(page, 1)).toContainText('auto-declined')
  await expect(row(page, 5)).toHaveAttribute('data-hidden', 'true')
  await row(page, 0).click()
  await expect(page.getByRole('complementary', { name: 'Selected step' })).toContainText(
    'Granted tag "system" (read only) covers "system_prompt"',
  )
})

test("when the run's attacker file exists, it is the attacker's view, and a disagreement with the forest is flagged", async ({
  page,
}, info) => {
  const tree = copyFixture(info.outputPath('with-attacker-file'))
  const run = JSON.parse(readFileSync(join(tree, TASK_DIR, 'trajectories', 'run_00001.json'), 'utf8'))
  // What the optimizer saw, as recorded: the user turn, its injection, the model's output... and an inbox read.
  const seen = [2, 3, 4, 5, 13].map((i) => run.trajectory[i])
  writeFileSync(
    join(tree, TASK_DIR, 'trajectories', 'run_00001.attacker.json'),
    JSON.stringify({ schema_version: 5, run_number: 1, trajectory: seen }),
  )
  await openFolder(page, tree)
  await openRun(page, 1)
  await expect(page.getByText("recorded in the run's attacker file")).toBeVisible()
  const hidden = await page
    .locator('[role="row"][data-hidden="true"]')
    .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-event'))))
  expect(hidden).toEqual([0, 1, 6, 7, 8, 9, 10, 11, 12])
  await page.getByLabel('Forest file').setInputFiles(STUB_FOREST)
  await row(page, 5).click()
  const panel = page.getByRole('complementary', { name: 'Selected step' })
  await expect(panel).toContainText('The attacker file records that the optimizer saw this item.')
  await expect(panel).toContainText("Mismatch: the forest and the task's grant say the attacker should not have seen it.")
})

test("a redscope tree stores the run once: the attacker's view is derived with the engine's filter and its domain.json", async ({
  page,
}, info) => {
  const tree = copyFixture(info.outputPath('with-domain'))
  writeFileSync(join(tree, EXP, 'domain.json'), readFileSync(STUB_FOREST, 'utf8'))
  await openFolder(page, tree)
  await openRun(page, 1)
  await expect(page.getByText("derived with the engine's filter from the run")).toBeVisible()
  const panel = page.getByRole('complementary', { name: 'Selected step' })
  // system_prompt is under the read-only "system": the filter passes it; the inbox is granted to no one.
  await expect(row(page, 0)).not.toHaveAttribute('data-hidden', 'true')
  await row(page, 0).click()
  await expect(panel).toContainText("The engine's filter, applied to this run with the experiment's forest (domain.json), passes this item")
  await expect(row(page, 5)).toHaveAttribute('data-hidden', 'true')
  await row(page, 5).click()
  await expect(panel).toContainText('holds this item back: the optimizer never saw it.')
})

test('opens the tree from a zip built from the fixture files', async ({ page }, info) => {
  const zip = info.outputPath('results.zip')
  writeFileSync(zip, zipFolder(FIXTURE, 'superred-results-example'))
  await page.goto('/results')
  await page.getByTestId('zip-input').setInputFiles(zip)
  await expect(page.getByRole('link', { name: EXP })).toBeVisible()
  await expect(page).toHaveURL(/src=zip%3Aresults\.zip/)
  await openRun(page, 2)
  await expect(page.locator('[role="row"][data-event]')).toHaveCount(14)
  await expect(row(page, 3)).toContainText('injection')
})

test('opens a zip dropped on the page', async ({ page }) => {
  await page.goto('/results')
  const bytes = Array.from(zipFolder(FIXTURE, 'dropped'))
  const data = await page.evaluateHandle((b) => {
    const dt = new DataTransfer()
    dt.items.add(new File([new Uint8Array(b)], 'dropped.zip', { type: 'application/zip' }))
    return dt
  }, bytes)
  await page.getByRole('region', { name: 'Open results' }).dispatchEvent('drop', { dataTransfer: data })
  await expect(page).toHaveURL(/src=zip%3Adropped\.zip/)
  await expect(page.getByRole('link', { name: EXP })).toBeVisible()
})

test("opens this browser's own runs from IndexedDB, where the run console writes them", async ({ page }) => {
  await page.goto('/results')
  // What IndexedDbStorage writes: one record per file in "redscope-results", keyed by its path.
  await putTreeInBrowser(page, FIXTURE)
  await page.getByRole('button', { name: "This browser's runs" }).click()
  await expect(page).toHaveURL(/src=idb%3Aredscope-results/)
  await openRun(page, 1)
  await expect(row(page, 3)).toContainText('INJ:user_msg')
  // The link works again in this browser with no file to pick.
  await page.reload()
  await expect(selected(page)).toHaveAttribute('data-event', '0')
})

test('a deep link opened in a fresh browser lands on the same event', async ({ page, browser, baseURL }) => {
  await openFolder(page, FIXTURE)
  await openRun(page, 2)
  await row(page, 7).click()
  await expect(page).toHaveURL(new RegExp(`/${TASK}/2/8\\?`))
  const link = page.url()

  // A folder link: the fresh browser asks for the folder, then continues to the event.
  const fresh = await browser.newContext()
  const p2 = await fresh.newPage()
  await p2.goto(link)
  await expect(p2.getByText('This link points into')).toContainText('superred-results-example')
  await p2.getByTestId('folder-input').setInputFiles(FIXTURE)
  await expect(selected(p2)).toHaveAttribute('data-event', '7')
  await expect(p2.getByRole('complementary', { name: 'Selected step' })).toContainText('Step 8')
  await expect(selected(p2).locator('.traj__index')).toHaveText('8')
  await fresh.close()

  // A superred serve link needs nothing from the user.
  const server = await serveFolder(FIXTURE, { cors: true })
  try {
    const ctx = await browser.newContext()
    const p3 = await ctx.newPage()
    await p3.goto(`${baseURL}${runUrl(`url:${server.url}`, 1, 10)}`)
    await expect(selected(p3)).toHaveAttribute('data-event', '9')
    await expect(selected(p3)).toContainText('<html>page</html>')
    await ctx.close()
  } finally {
    await server.close()
  }
})

test('a superred serve without CORS gets a message that says why and what to do', async ({ page }) => {
  const server = await serveFolder(FIXTURE, { cors: false })
  try {
    await page.goto('/results')
    await page.getByLabel('superred serve address').fill(server.url)
    await page.getByRole('button', { name: 'Open address' }).click()
    await expect(page.getByRole('alert')).toContainText('CORS')
    await expect(page.getByRole('alert')).toContainText('experiments.json')
  } finally {
    await server.close()
  }
})

test('a trajectory of classic XSS payloads renders them as text and runs nothing', async ({ page }, info) => {
  const g = guard(page)
  await openFolder(page, writeHostileTree(info.outputPath('hostile')))
  await openRun(page, 1)
  await expect(row(page, 0)).toContainText(XSS.script)
  await expect(row(page, 3)).toContainText(XSS.img)
  await row(page, 4).click()
  const panel = page.getByRole('complementary', { name: 'Selected step' })
  // Inside a JSON value the quotes are escaped; the markup is still plain text.
  await expect(panel).toContainText('<svg onload=')
  await expect(panel).toContainText('<iframe srcdoc=')
  await expect(page.getByText(`leak ${XSS.script}`).first()).toBeVisible()
  await page.waitForTimeout(300)
  expect(await page.locator('.results img, .results iframe, .results script, .results svg[onload]').count()).toBe(0)
  expect(g.dialogs).toEqual([])
  expect(await g.pwned()).toBeNull()
})

test('exports a finding, redacted, that opens from file:// with JavaScript on and runs nothing', async ({ page, browser }, info) => {
  await openFolder(page, writeHostileTree(info.outputPath('hostile')))
  await openRun(page, 1)
  await row(page, 3).click()
  await page.getByLabel('Speaker note').fill('Here the attacker smuggles <b>markup</b> and a key')
  await page.getByRole('button', { name: 'Save note' }).click()
  await page.getByRole('button', { name: 'Export finding…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Export finding' })
  // The preview shows what will be masked before anything is written.
  await expect(dialog.getByRole('region', { name: 'Redaction preview' })).toContainText(SECRET)
  await expect(dialog.getByRole('region', { name: 'Redaction preview' })).toContainText('[redacted:api-key]')
  await dialog.getByLabel('Custom redaction pattern').fill('user_msg')
  await dialog.getByRole('button', { name: 'Add rule' }).click()
  await expect(dialog.getByRole('region', { name: 'Redaction preview' })).toContainText('custom-1')
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download HTML' }).click()])
  const file = info.outputPath('finding.html')
  await download.saveAs(file)
  const html = readFileSync(file, 'utf8')
  expect(html).not.toContain(SECRET)
  expect(html).not.toMatch(/<script/i)
  expect(html).toContain('default-src &#39;none&#39;')

  const ctx = await browser.newContext({ javaScriptEnabled: true })
  const viewer = await ctx.newPage()
  const g = guard(viewer)
  await viewer.goto(pathToFileURL(file).href)
  await expect(viewer.locator('h1')).toHaveText(`leak ${XSS.script}`)
  // Item 3 (its row was noted) is step 4 in the export, as on the viewer's row.
  await expect(viewer.locator('#step-4')).toContainText(XSS.img.slice(0, 20))
  await expect(viewer.locator('#step-4')).toContainText('Here the attacker smuggles <b>markup</b> and a key')
  await expect(viewer.locator('#step-4')).toContainText('[redacted:api-key]')
  await expect(viewer.locator('#step-3')).toContainText('[redacted:custom-1]')
  await viewer.waitForTimeout(300)
  expect(await viewer.locator('script, img, iframe, svg').count()).toBe(0)
  expect(g.dialogs).toEqual([])
  expect(await g.pwned()).toBeNull()
  await ctx.close()
})

test('a 10 MB value is cut for display and never freezes the page', async ({ page }, info) => {
  const huge = 10 * 2 ** 20
  await openFolder(page, writeHostileTree(info.outputPath('huge'), { hugeChars: huge }))
  await openRun(page, 1)
  await row(page, 4).click()
  const panel = page.getByRole('complementary', { name: 'Selected step' })
  await expect(panel).toContainText(`${(huge + XSS.svg.length).toLocaleString('en-US')} chars`)
  const started = Date.now()
  await panel.getByRole('button', { name: 'Show all' }).click()
  await expect(panel).toContainText('Showing the first 100,000 of')
  await expect(panel.getByRole('button', { name: 'Download full value' })).toBeVisible()
  // The page still answers at once: a keypress moves the selection.
  await page.getByRole('grid').click({ position: { x: 5, y: 5 } })
  await page.keyboard.press('j')
  await expect(selected(page)).toHaveAttribute('data-event', '5')
  expect(Date.now() - started).toBeLessThan(5_000)
  const longest = await panel
    .locator('[data-testid="value-text"]')
    .evaluateAll((els) => Math.max(0, ...els.map((e) => e.textContent?.length ?? 0)))
  expect(longest).toBeLessThan(200_000)
})

test('presenter mode shows one step with its tags lit on the forest, and notes and bookmarks persist', async ({ page }) => {
  await openFolder(page, FIXTURE)
  await openRun(page, 1)
  await page.getByLabel('Forest file').setInputFiles(STUB_FOREST)
  await row(page, 0).click()
  await page.getByLabel('Speaker note').fill('The system prompt is visible but not writable.')
  await page.getByRole('button', { name: 'Save note' }).click()
  await page.getByRole('button', { name: '☆ Bookmark' }).click()
  await expect(row(page, 0)).toContainText('★')

  await page.getByRole('button', { name: 'Presenter' }).click()
  await expect(page).toHaveURL(/present=1/)
  const presenter = page.getByLabel('Presenter')
  await expect(presenter.getByRole('status')).toHaveText('Step 1 of 14')
  await expect(presenter.getByRole('region', { name: 'Speaker notes' })).toContainText('The system prompt is visible but not writable.')
  await expect(presenter.locator('[data-tag="system_prompt"]')).toHaveAttribute('data-lit', 'true')
  await expect(presenter.locator('[data-tag="system"]')).toHaveAttribute('data-lit', 'true')
  await expect(presenter.locator('[data-tag="inbox"]')).toHaveAttribute('data-lit', 'false')
  await page.keyboard.press('n')
  await expect(presenter.getByRole('status')).toHaveText('Step 4 of 14')
  await expect(presenter.locator('[data-tag="user"]')).toHaveAttribute('data-lit', 'true')
  await expect(presenter.locator('[data-tag="system"]')).toHaveAttribute('data-lit', 'false')

  // Reload: notes and bookmarks come back from IndexedDB.
  await page.reload()
  await page.getByTestId('folder-input').setInputFiles(FIXTURE)
  // Escape only means something once the presenter is back on screen (its key handler with it).
  await expect(page.getByLabel('Presenter').getByRole('status')).toHaveText('Step 4 of 14')
  await page.keyboard.press('Escape')
  await expect(page).not.toHaveURL(/present=1/)
  await page.keyboard.press('G') // previous bookmark
  await expect(selected(page)).toHaveAttribute('data-event', '0')
  await expect(page.getByLabel('Speaker note')).toHaveValue('The system prompt is visible but not writable.')
})

test('diffs two runs, aligned, the changed injection highlighted; the task shows its score/cost chart', async ({ page }, info) => {
  await openFolder(page, writeHostileTree(info.outputPath('diff')))
  await page.getByRole('link', { name: EXP }).click()
  await page.getByRole('link', { name: /^leak/ }).click()
  await expect(page.getByRole('img', { name: /Primary score against run number over 2 runs/ })).toBeVisible()
  await page.getByRole('button', { name: 'Diff runs' }).click()
  const diff = page.getByRole('region', { name: 'Run diff' })
  await expect(diff.getByRole('status')).toContainText('changed')
  const changed = diff.locator('[data-status="changed"]')
  const injection = changed.filter({ hasText: 'a different injection' })
  await expect(injection).toHaveCount(1)
  await expect(injection.locator('mark').first()).toHaveText(/img src=x/)
  // Run 1 changed its request, injection, observation and evaluation; everything else lines up.
  await expect(diff.locator('[data-status="same"]')).toHaveCount(10)
  await expect(diff.locator('[data-status="added"], [data-status="removed"]')).toHaveCount(0)
})

test('diffs the same task under two threat models: an extra step shows as added', async ({ page }, info) => {
  const tree = copyFixture(info.outputPath('two-models'))
  const OTHER = 'scripted__stub-agent__leak__no-llm-99999999'
  addSecondExperiment(tree, OTHER, (run) => {
    run.trajectory.splice(5, 0, {
      kind: 'event',
      type: 'ObservableEvent',
      event_id: 'extra',
      timestamp: '2026-11-29T18:44:16.404581',
      security_domain: 'user',
      observable: { name: 'extra_view', security_domain: 'user', description: '', observable_type: 'text' },
      content: 'only under B',
    })
  })
  // A diff link in a fresh page: pick the folder, land on the diff.
  await page.goto(
    `/results/diff?src=folder%3Atwo-models&a=${encodeURIComponent(`${EXP}/${TASK}/1`)}&b=${encodeURIComponent(`${EXP}/${TASK}/1`)}`,
  )
  await page.getByTestId('folder-input').setInputFiles(tree)
  const diff = page.getByRole('region', { name: 'Run diff' })
  await expect(diff.getByRole('status')).toContainText('14 same')
  await page.getByRole('combobox', { name: 'Experiment B' }).selectOption(OTHER)
  await expect(page.getByRole('combobox', { name: 'Task B' })).toHaveValue(TASK)
  await expect(page.getByRole('combobox', { name: 'Task B' }).locator('option:checked')).toContainText('(same goal)')
  await expect(diff.locator('[data-status="added"]')).toHaveCount(1)
  await expect(diff.locator('[data-status="added"]')).toContainText('only under B')
  await expect(diff.locator('[data-status="same"]')).toHaveCount(14)
})
