/**
 * Numbers that claim no more than was measured, and a painting that does not
 * mislead (issue 31, points 3 and 4), on the demo assistant served by the app:
 * a sweep of every combination of `inbox`, `model_identity` and `user`. Wins
 * come through `user` (and `inbox` against the undefended task); the
 * observable-only `model_identity` grants nothing, yet most threat models that
 * hold it win, so pooling painted it as a success. Here the grid says each
 * ASR with its n and 95% interval, a threat model that held says so in words,
 * and `model_identity` is never painted as raising the ASR; once the frontier
 * search has run, the painting shows the frontier's view instead.
 */
import { expect, test, type Page } from '@playwright/test'
import { buildDomain, combinationIndex } from '../src/core/tags'
import { ASSISTANT_FOREST } from '../src/reference-targets/assistant/forest'
import { openSweepOnAssistant } from './frontierHelpers'
import { waitForState } from './runConsole/helpers'

test.use({ viewport: { width: 1440, height: 1000 } })

const TAGS = ['inbox', 'model_identity', 'user']
const domain = buildDomain(ASSISTANT_FOREST)
/** The 7 non-empty combinations of TAGS, by their designer numbers. */
const PICKS = Array.from({ length: 7 }, (_, i) => TAGS.filter((_, b) => ((i + 1) & (1 << b)) !== 0)).map((names) => ({
  names,
  index: combinationIndex(
    domain,
    names.map((n) => domain.get(n)!),
  ),
}))

/** Ticks each pick in the virtualized list of distinct combinations (28 px a row), scrolling it into view first. */
async function pickThreatModels(page: Page) {
  await page.getByRole('radiogroup', { name: 'Which threat models' }).getByRole('radio', { name: 'Pick from the list' }).click()
  const list = page.getByRole('list', { name: 'Distinct threat models' })
  for (const p of PICKS) {
    await list.evaluate(
      (el, top) => {
        el.scrollTop = top
      },
      (Number(p.index) - 1) * 28,
    )
    await list.getByRole('checkbox', { name: new RegExp(`^Threat model #${p.index}: `) }).check()
  }
  await expect(page.getByTestId('sweep-count')).toHaveText('7 threat models match (the empty scope is skipped)')
}

const tag = (page: Page, name: string) => page.locator(`[data-testid=forest-tag][data-tag=${name}]`)

test('the sweep grid says each ASR with n and its interval, and a tag that grants nothing is not painted as a success', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await openSweepOnAssistant(page)
  await pickThreatModels(page)
  await page.getByRole('button', { name: 'Run sweep' }).click()
  await waitForState(page, 'Finished', 90_000)
  await expect(page.getByTestId('stat-done')).toHaveText('28 / 28')
  // The dashboard: the headline and, under it, n and the interval.
  await expect(page.getByTestId('stat-asr-sub')).toHaveText(/^\d+ of \d+ tasks, 95% CI \d+–\d+%$/)
  await expect(page.getByTestId('sweep-summary')).toContainText(
    /7 of 7 threat models complete · \d broke the claim · ASR \d+% \(\d+ of 28 tasks, 95% CI \d+–\d+%\)/,
  )

  // The grid: every ASR with its n (completed tasks) and 95% interval; the one that held says so, with its bound.
  const rows = page.getByTestId('sweep-row')
  await expect(rows).toHaveCount(7)
  for (const cell of await page.getByTestId('sweep-asr').all()) await expect(cell).toHaveText(/^\d\/4 \((\d+–\d+%|≤ \d+%)\)$/)
  const alone = rows.filter({ has: page.locator('[role=cell]:nth-child(2)', { hasText: /^model_identity$/ }) })
  await expect(alone.getByTestId('sweep-asr')).toHaveText('0/4 (≤ 49%)')
  await expect(alone.getByTestId('sweep-asr')).toHaveAttribute('title', /^not broken in 4 tasks by template-[0-9a-f]{8} \(≤ 49% at 95%\)$/)

  // The painting: model_identity wins with other tags (pooling said "success"), but it raises nothing.
  const identity = tag(page, 'model_identity')
  const [k, n] = (await identity.getAttribute('data-with'))!.split('/').map(Number)
  expect(n).toBe(16)
  expect(k).toBeGreaterThan(0)
  await expect(identity).not.toHaveAttribute('data-effect', 'raises')
  await expect(identity).toHaveAttribute('data-effect', 'no-difference')
  await expect(identity.locator('[data-line="0"]')).toHaveText(/^with: \d+\/16 \(\d+–\d+%\)$/)
  await expect(identity.locator('[data-line="1"]')).toHaveText(/^without: \d+\/12 \((\d+–\d+%|≤ \d+%)\)$/)
  await expect(identity.locator('[data-line="2"]')).toHaveText('no measured difference')
  await expect(identity.locator('rect')).toHaveAttribute('fill', '#f8f9fa')
  // user is what wins: 16 of 16 with it against few without.
  await expect(tag(page, 'user')).toHaveAttribute('data-effect', 'raises')
  await expect(tag(page, 'bank_account')).toHaveAttribute('data-effect', 'unknown')
  // The legend says what the colours mean.
  const legend = page.getByRole('list', { name: 'What the colours mean' })
  await expect(legend).toContainText('raises the ASR')
  await expect(legend).toContainText('no measured difference')
})

test('once the frontier search has run on the same question, the sweep paints the frontier’s view', async ({ page }) => {
  test.setTimeout(180_000)
  await openSweepOnAssistant(page)
  await page.getByRole('button', { name: 'Find the weakest winning attacker' }).click()
  await expect(page.getByTestId('frontier-progress')).toContainText('done.', { timeout: 120_000 })
  // A loss in the panel says how little was tried, never a bare "loses".
  await page.getByText(/The widest attackers that lose/).click()
  await expect(page.getByTestId('frontier-loss').first().getByTestId('frontier-runs')).toHaveText(
    /^: not broken in 1 run by template-[0-9a-f]{8} \(≤ 80% at 95%\)$/,
  )
  await expect(page.getByTestId('frontier-win').first().getByTestId('frontier-runs')).toHaveText(/^: 100% \(1 of 1 run, 95% CI 20–100%\)$/)

  await pickThreatModels(page)
  await page.getByRole('button', { name: 'Run sweep' }).click()
  await waitForState(page, 'Finished', 90_000)
  await expect(
    page.getByRole('region', { name: 'Sweep results' }).getByRole('figure', { name: 'The frontier on the forest' }),
  ).toBeVisible()
  await expect(tag(page, 'model_identity')).toHaveAttribute('data-role', 'not-needed')
  await expect(tag(page, 'model_identity').locator('[data-line="0"]')).toHaveText('not needed by any minimal winner')
  await expect(tag(page, 'user')).toHaveAttribute('data-role', 'written')
  await expect(page.getByRole('region', { name: 'Sweep results' }).getByRole('list', { name: 'What the colours mean' })).toContainText(
    'written by a minimal winning threat model',
  )
  // The other view is a click away, and says the same of model_identity.
  await page.getByRole('button', { name: 'with the tag against without it' }).click()
  await expect(tag(page, 'model_identity')).toHaveAttribute('data-effect', 'no-difference')
  await page.getByTestId('sweep-row').first().scrollIntoViewIfNeeded()
  await page.screenshot({ path: test.info().outputPath('sweep.png'), fullPage: true })
})
