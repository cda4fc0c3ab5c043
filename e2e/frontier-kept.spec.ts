/**
 * The frontier is kept and shown (issue 36 point 3): a search run on the Run
 * page is kept in this browser's IndexedDB, listed in the Results tab and
 * opened there painted, also after a reload; and `redscope view` on a folder
 * `redscope frontier --out` wrote shows the same kind of answer, minimal wins
 * and maximal losses, painted.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { openSweepOnAssistant, serveAssistant } from './frontierHelpers'
import { CliProcesses, runCli } from '../src/testing/cliProcesses'
import { startView } from './support/viewServer'

test.use({ viewport: { width: 1440, height: 1000 } })

const WIN = (n: number, tag: string) =>
  new RegExp(
    `^#${n} an attacker who writes ${tag} and reads nothing else wins: 100% \\(1 of 1 run, 95% CI 20–100%\\) · the run that decided it show$`,
  )

test('a frontier search of the Run page is kept in this browser, listed in Results, opened painted, and still there after a reload', async ({
  page,
}) => {
  test.setTimeout(150_000)
  await openSweepOnAssistant(page)
  await page.getByRole('button', { name: 'Find the weakest winning attacker' }).click()
  await expect(page.getByTestId('frontier-progress')).toContainText('done.', { timeout: 120_000 })
  const losses = await page.getByTestId('frontier-loss').count()
  expect(losses).toBeGreaterThan(0)

  await page.getByTestId('frontier-kept').getByRole('link', { name: 'open it in Results' }).click()
  await expect(page).toHaveURL(/\/results\/frontier\?src=idb%3Aredscope-results&id=frontier-/)
  const check = async () => {
    await expect(page.getByTestId('frontier-progress')).toHaveText(/^Evaluated \d+ of 305 threat models; \d+ decided by inference\.$/)
    await expect(page.getByTestId('frontier-win')).toHaveText([
      WIN(8, 'inbox'),
      WIN(17, 'user'),
      WIN(68, 'tool_catalogue'),
      WIN(136, 'system_prompt'),
    ])
    await expect(page.getByTestId('frontier-loss')).toHaveCount(losses)
    for (const text of await page.getByTestId('frontier-loss').allTextContents()) {
      expect(text).toMatch(
        /^#\d+ an attacker who writes .+ loses: not broken in 1 run by template-[0-9a-f]{8} \(≤ 80% at 95%\) · the run that decided it show$/,
      )
    }
    // Painted with the minimal winners: a tag one of them writes, and one none needs.
    await expect(page.locator('[data-testid=frontier-tag][data-tag=inbox]')).toHaveAttribute('data-wins', '1')
    await expect(page.locator('[data-testid=frontier-tag][data-tag=bank_account]')).toHaveAttribute('data-wins', '0')
  }
  await check()
  await page.reload()
  await check()

  // A loss painted alone, then its run opened in the viewer.
  const loss = page.getByTestId('frontier-loss').first()
  await loss.getByRole('button', { name: /^Show #\d+ on the forest$/ }).click()
  await expect(page.getByTestId('frontier-shown')).toContainText(/Painted: #\d+, an attacker who writes/)
  await loss.getByRole('link', { name: 'the run that decided it' }).click()
  await expect(page).toHaveURL(
    /\/results\/template-[0-9a-f]{8}__redscope-assistant__assistant-exfiltration__no-llm-[0-9a-f]{8}\?src=idb%3Aredscope-results/,
  )

  // Listed beside this browser's runs, after a reload of the list.
  await page.goto('/results?src=idb%3Aredscope-results')
  await page.reload()
  const record = page.getByTestId('frontier-record')
  await expect(record).toHaveCount(1)
  await expect(record).toContainText(/assistant-exfiltration on redscope-assistant, attacker template-[0-9a-f]{8}/)
  await expect(record).toContainText(`4 minimal wins, ${losses} maximal loss${losses === 1 ? '' : 'es'}`)
  await record.getByRole('link').click()
  await expect(page.getByTestId('frontier-win')).toHaveCount(4)
})

test('redscope view on a folder with frontier.json shows the answer: minimal wins and maximal losses, painted', async ({ page }) => {
  test.setTimeout(120_000)
  const dir = mkdtempSync(join(tmpdir(), 'redscope-frontier-view-'))
  const procs = new CliProcesses()
  let view: Awaited<ReturnType<typeof startView>> | null = null
  try {
    const url = await serveAssistant(procs)
    const out = join(dir, 'out')
    const r = await runCli([
      'frontier',
      '--target',
      url,
      '--claim',
      'public/claims/assistant-exfiltration.json',
      '--template',
      'naive',
      '--max-runs',
      '1',
      '--out',
      out,
    ])
    expect(r.code).toBe(0)
    const f = JSON.parse(readFileSync(join(out, 'frontier.json'), 'utf8')) as {
      evaluated: number
      claim: { minimal_wins: Array<{ index: string }>; maximal_losses: Array<{ index: string }> }
    }

    view = await startView([out, '--port', '0'])
    await page.goto(view.url)
    await expect(page.getByTestId('frontier-banner')).toContainText(
      `${f.claim.minimal_wins.length} minimal wins and ${f.claim.maximal_losses.length} maximal loss`,
    )
    await page.getByTestId('frontier-banner').getByRole('link', { name: 'Open the frontier' }).click()
    await expect(page.getByTestId('frontier-progress')).toHaveText(
      new RegExp(`^Evaluated ${f.evaluated} of 305 threat models; \\d+ decided by inference\\.$`),
    )
    await expect(page.getByTestId('frontier-win')).toHaveText([
      WIN(8, 'inbox'),
      WIN(17, 'user'),
      WIN(68, 'tool_catalogue'),
      WIN(136, 'system_prompt'),
    ])
    await expect(page.getByTestId('frontier-loss')).toHaveCount(f.claim.maximal_losses.length)
    await expect(page.getByTestId('frontier-loss').first()).toContainText(
      /loses: not broken in 1 run by template-[0-9a-f]{8} \(≤ 80% at 95%\)/,
    )
    await expect(page.locator('[data-testid=frontier-tag][data-tag=inbox]')).toHaveAttribute('data-wins', '1')
    await expect(page.locator('[data-testid=frontier-tag][data-tag=bank_account]')).toHaveAttribute('data-wins', '0')
    await expect(page.locator('figure[data-painting=frontier]')).toContainText(/frontier\.json of /)
    // Each point opens the run that decided it, served from the folder.
    await page.getByTestId('frontier-win').first().getByRole('link', { name: 'the run that decided it' }).click()
    await expect(page.getByRole('heading', { level: 2 })).toContainText(
      /template-[0-9a-f]{8} → redscope-assistant · assistant-exfiltration/,
    )
  } finally {
    await view?.stop()
    await procs.stopAll()
    rmSync(dir, { recursive: true, force: true })
  }
})
