/**
 * A saved threat model's name travels with its results (issue 36, point 4):
 * a sweep of the demo workspace's six saved threat models shows each name in
 * the sweep grid and the Results list (with the tags it grants beneath), the
 * sweep report, `redscope results` on the sweep's zip, and the static site
 * the Results tab saves.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { expect, test, type Download } from '@playwright/test'
import { unzipSync } from 'fflate'
import { onlyTemplates, openBrowserRuns, pickClaim, setField, waitForState } from './runConsole/helpers'

test.use({ viewport: { width: 1440, height: 1000 } })

const NAMES = [
  'Guide: blind user',
  'Guide: user who knows the model',
  'Guide: user who sees the system prompt',
  'Guide: user who overrides the system prompt',
  'Guide: user who reads the responses',
  'Guide: compromised output',
]

let dir = ''
test.beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'names-e2e-'))
})
test.afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

/** Unpacks a downloaded zip under `dir/into`; returns its top folder. */
async function unpack(download: Download, into: string): Promise<string> {
  const files = unzipSync(new Uint8Array(readFileSync((await download.path())!)))
  for (const [name, bytes] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, into, name)), { recursive: true })
    writeFileSync(join(dir, into, name), bytes)
  }
  return join(dir, into, Object.keys(files)[0].split('/')[0])
}

test('a sweep of saved threat models names each one in the grid, the list, the report, redscope results and the static site', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await page.goto('/run')
  await expect(page.getByTestId('manifest')).toContainText('redscope-chatbot')
  await pickClaim(page, 'chatbot-secret-leak.json')
  await onlyTemplates(page, ['naive'])
  // One payload is one payload (the card said "1 payloads").
  await expect(page.getByRole('group', { name: 'Attacker' }).locator('.rc-card__summary')).toHaveText('template, 1 payload')
  await setField(page, 'Max runs per task', '1')
  await page.getByRole('link', { name: 'Sweep threat models' }).click()
  await page.getByRole('radiogroup', { name: 'Which threat models' }).getByRole('radio', { name: 'Saved threat models' }).click()
  await expect(page.getByTestId('sweep-count')).toContainText('6 saved threat models')
  await page.getByRole('button', { name: 'Run sweep' }).click()
  await waitForState(page, 'Finished', 90_000)
  await expect(page.getByTestId('sweep-row-name')).toHaveText(NAMES)

  const [reportDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download the sweep report' }).click(),
  ])
  const report = readFileSync((await reportDownload.path())!, 'utf8')
  for (const name of NAMES) expect(report).toContain(`<h3>${name}</h3>`)

  await openBrowserRuns(page)
  const rows = page.getByTestId('experiment-row')
  await expect(rows).toHaveCount(6)
  const blind = rows.filter({ hasText: 'Guide: blind user' })
  await expect(blind.getByTestId('experiment-grants')).toHaveText('user')
  await expect(rows.filter({ hasText: 'Guide: user who sees the system prompt' }).getByTestId('experiment-grants')).toHaveText(
    'user, system_prompt (read only)',
  )

  const [zipDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download sweep (.zip)' }).click(),
  ])
  const tree = await unpack(zipDownload, 'zip')
  const json = JSON.parse(execFileSync('node', ['bin/redscope.mjs', 'results', tree], { encoding: 'utf8' })) as {
    experiments: Array<{ threat_model_name: string | null }>
  }
  expect(json.experiments.map((e) => e.threat_model_name).sort()).toEqual([...NAMES].sort())

  const [siteDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download sweep as a site' }).click(),
  ])
  const site = await unpack(siteDownload, 'site')
  await page.goto(`${pathToFileURL(join(site, 'index.html')).href}#/sweep`)
  await expect(page.getByTestId('sweep-row-name')).toHaveText(NAMES)
  await page.goto(pathToFileURL(join(site, 'index.html')).href)
  await expect(page.getByTestId('experiment-row').filter({ hasText: 'Guide: blind user' }).getByTestId('experiment-grants')).toHaveText(
    'user',
  )
})
