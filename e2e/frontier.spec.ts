/**
 * "Find the weakest winning attacker" beside the sweep, against the demo
 * assistant served by the app (/targets/assistant/, deterministic defences):
 * live progress, the frontier in words with links to the runs that decided
 * it, and the frontier painted on the forest. The answer is the one
 * `redscope frontier` gives for the same attacker (src/cli/frontier.e2e.test.ts
 * checks that against a full sweep).
 */
import { expect, test } from '@playwright/test'
import { ASSISTANT_FOREST } from '../src/targets/assistant/forest'
import { openDesigner, openMenu } from './designerHelpers'
import { onlyTemplates, pickClaim, setField } from './runConsole/helpers'

test.use({ viewport: { width: 1440, height: 1000 } })

test('the weakest attackers that exfiltrate from the demo assistant, found with a few runs of 305, each linked to its run', async ({ page }) => {
  test.setTimeout(120_000)
  await openDesigner(page)
  await (await openMenu(page, 'Import')).getByLabel('FOREST.json file')
    .setInputFiles({ name: 'assistant.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(ASSISTANT_FOREST)) })
  await expect(page.getByRole('group', { name: 'bank_account', exact: true })).toBeVisible()
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Run', exact: true }).click()
  await page.getByRole('radio', { name: /Tool-using assistant/ }).click()
  await expect(page.getByTestId('manifest')).toContainText('redscope-assistant')
  await pickClaim(page, 'assistant-exfiltration.json')
  await onlyTemplates(page, ['naive'])
  await setField(page, 'Max runs per task', '1')
  await page.getByRole('link', { name: 'Sweep threat models' }).click()

  await page.getByRole('button', { name: 'Find the weakest winning attacker' }).click()
  const progress = page.getByTestId('frontier-progress')
  // Live: it counts while it runs, then says it is done.
  await expect(progress).toContainText(/Evaluated \d+ of 305 threat models, decided by inference \d+, undecided \d+/)
  await expect(progress).toContainText('done.', { timeout: 90_000 })
  const text = (await progress.textContent())!
  const [, evaluated, inferred] = /Evaluated (\d+) of 305 threat models, decided by inference (\d+), undecided 0/.exec(text)!.map(Number)
  expect(evaluated + inferred).toBe(305)
  expect(evaluated).toBeLessThanOrEqual(30)

  const wins = page.getByTestId('frontier-win')
  await expect(wins).toHaveText([
    /^#8 an attacker who writes inbox and reads nothing else wins · the run that decided it$/,
    /^#17 an attacker who writes user and reads nothing else wins · the run that decided it$/,
    /^#68 an attacker who writes tool_catalogue and reads nothing else wins · the run that decided it$/,
    /^#136 an attacker who writes system_prompt and reads nothing else wins · the run that decided it$/,
  ])
  // Painted: a tag a minimal winner holds (through itself or an ancestor), and one none needs.
  await expect(page.locator('[data-testid=frontier-tag][data-tag=inbox]')).toHaveAttribute('data-wins', '1')
  await expect(page.locator('[data-testid=frontier-tag][data-tag=bank_account]')).toHaveAttribute('data-wins', '0')
  await expect(page.locator('[data-testid=frontier-tag][data-tag=tools]')).toHaveAttribute('data-wins', '0')

  await wins.first().getByRole('link', { name: 'the run that decided it' }).click()
  await expect(page).toHaveURL(/\/results\/template__redscope-assistant__assistant-exfiltration__no-llm-[0-9a-f]{8}\?src=idb%3Aredscope-results/)
  await expect(page.getByRole('heading', { level: 2 })).toContainText('template → redscope-assistant · assistant-exfiltration')
})
