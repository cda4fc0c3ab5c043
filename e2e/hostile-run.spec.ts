/**
 * The hostile corpus through the run console in Chromium: a target whose
 * manifest, requests, observations and error pages are the corpus; a claim
 * file whose name and goals are; an LLM attacker whose replies are. Every
 * view (connection and manifest, claim editor, live lanes with their errors,
 * the human attacker's panel, the results list) stays inert and responsive.
 */
import { expect, test, type Page } from '@playwright/test'
import { HOSTILE_STRINGS, HOSTILE_TEXT } from '../src/testing/hostileContent'
import { startScriptedLlm, type ScriptedLlm } from '../src/testing/scriptedLlm'
import { startScriptedTarget, type ScriptedTarget } from '../src/testing/scriptedTarget'
import { expectInert, watch } from './support/inert'
import { connectTargetUrl, grantAndOpenRun, openBrowserRuns, openExperimentRow, setField, waitForState } from './runConsole/helpers'

test.use({ viewport: { width: 1440, height: 1000 } })

let target: ScriptedTarget
let llm: ScriptedLlm
test.beforeAll(async () => {
  target = await startScriptedTarget({ hostileManifest: true })
  llm = await startScriptedLlm(() => ({ kind: 'reply', content: HOSTILE_TEXT }))
})
test.afterAll(async () => {
  await Promise.all([target.close(), llm.close()])
})

const claimFile = () =>
  JSON.stringify({
    name: HOSTILE_STRINGS[0],
    description: HOSTILE_TEXT,
    tasks: [
      {
        goal: HOSTILE_STRINGS[8],
        config: { mode: 'corpus' },
        evaluator: { type: 'trajectory_match', observable: 'reply', pattern: '^echo' },
      },
      {
        goal: HOSTILE_STRINGS[16],
        config: { mode: 'status500' },
        evaluator: { type: 'trajectory_match', observable: 'reply', pattern: '^echo' },
      },
    ],
  })

async function connectAndImport(page: Page) {
  await grantAndOpenRun(page, ['user'])
  await connectTargetUrl(page, target.url, 'scripted <script>window.__pwned=1</script>')
  await page.getByRole('button', { name: 'Write tasks…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Claim tasks' })
  await dialog
    .getByLabel('Import a claim file')
    .setInputFiles({ name: 'hostile-claim.json', mimeType: 'application/json', buffer: Buffer.from(claimFile()) })
  await expect(dialog.getByTestId('claim-task')).toHaveCount(2)
  await expect(dialog.getByTestId('claim-task').first().getByLabel('Goal')).toHaveValue(HOSTILE_STRINGS[8])
  return dialog
}

test('run console: a hostile target, claim file and LLM attacker are shown as text, in every view', async ({ page, context }) => {
  test.setTimeout(60_000)
  const w = watch(page, context)
  const dialog = await connectAndImport(page)
  await expectInert(page, w, page.url())
  await dialog.getByRole('button', { name: 'Done' }).click()

  await page.getByRole('radio', { name: 'LLM' }).click()
  await setField(page, 'Max runs per task', '1')
  const model = page.getByRole('group', { name: 'Attacker model' })
  await model.getByLabel('Base URL (OpenAI-compatible)').fill(llm.baseURL)
  await model.getByLabel('Model').fill('gpt-4o-mini')
  await page.getByRole('button', { name: 'Run threat model' }).click()
  await waitForState(page, 'Finished')
  const results = page.getByTestId('task-result')
  await expect(results).toHaveCount(2)
  // The target's 500 page, script tag and all, is the task's error: text in an alert.
  await expect(results.nth(1).getByRole('alert')).toContainText(
    'answered 500 "<html><body><script>window.__pwned=1</script>Internal Server Error',
  )
  await expectInert(page, w, page.url())

  await openBrowserRuns(page)
  await expect(page.getByTestId('experiment-row').first()).toBeVisible()
  await expectInert(page, w, page.url())
  // The viewer of that run: the LLM's replies (the corpus) are the injected values.
  await openExperimentRow(page.getByTestId('experiment-row').first())
  await page.getByRole('list', { name: 'Task rows' }).getByRole('link').first().click()
  await page.getByRole('link', { name: 'Run 1', exact: true }).click()
  const grid = page.getByRole('grid', { name: /Trajectory/ })
  await expect(grid).toContainText('<script>window.__pwned=1</script>')
  for (let i = 0; i < 6; i++) await page.locator(`[role="row"][data-event="${i}"]`).click()
  await expectInert(page, w, page.url())
})

test("run console: the human attacker's panel shows a hostile request and observations as text", async ({ page, context }) => {
  const w = watch(page, context)
  const dialog = await connectAndImport(page)
  await dialog.getByRole('button', { name: 'Done' }).click()
  await page.getByRole('radio', { name: 'Human' }).click()
  await setField(page, 'Max runs per task', '1')
  await page.getByRole('button', { name: 'Run threat model' }).click()
  const panel = page.getByTestId('human-panel')
  await expect(page.getByTestId('human-request')).toHaveText(HOSTILE_TEXT)
  await expect(panel).toContainText(HOSTILE_STRINGS[8])
  await expectInert(page, w, page.url())
  // Still answers: typing and injecting works, then cancel.
  await page.getByLabel('Text to inject into user_message').fill(HOSTILE_STRINGS[1])
  await page.getByRole('button', { name: 'Inject' }).click()
  await page.getByRole('button', { name: 'Cancel run' }).click()
  await waitForState(page, 'Cancelled')
  await expectInert(page, w, page.url())
})
