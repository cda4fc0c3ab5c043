/**
 * A first visit lands: the page says what redscope is for, one click runs the
 * demo attack and shows its result; the Run page says (and lets the user
 * choose) which workspace and threat model it runs, and opening another
 * workspace in the designer never changes that behind the user's back.
 */
import { expect, test, type Page } from '@playwright/test'
import { openMenu } from './designerHelpers'
import { taskStatuses, waitForState } from './runConsole/helpers'

test.use({ viewport: { width: 1440, height: 1000 } })

const DEMO_WS = 'Chatbot (guide example)'
const runsWhat = (page: Page) => page.getByTestId('runs-what')

test('the landing says what redscope is for, and "Run the demo attack" runs the guide\'s blind user against the demo chatbot', async ({
  page,
}) => {
  await page.goto('/')
  await expect(page.getByTestId('tagline')).toHaveText(
    /^Threat models for AI systems: draw the trust boundaries, attack as a chosen attacker, replay what it saw beside the truth\.$/,
  )
  await expect(page.locator('.react-flow__node').first()).toBeVisible()
  await page.getByRole('button', { name: 'Run the demo attack' }).click()
  await expect(page).toHaveURL(/\/run$/)
  await waitForState(page, 'Finished', 60_000)
  expect(await taskStatuses(page)).toHaveLength(3)
  expect((await taskStatuses(page))[0]).toBe('success')
  // The page says what ran: the threat model, its workspace, the claim, the target.
  await expect(
    page.getByRole('heading', {
      name: /chatbot-secret-leak against demo chatbot \(deterministic\): “Guide: blind user” of “Chatbot \(guide example\)”/,
    }),
  ).toBeVisible()
  await expect(runsWhat(page)).toHaveText(`Runs Guide: blind user of workspace “${DEMO_WS}”.`)
  await expect(page.getByRole('radiogroup', { name: 'Threat model' }).getByRole('radio', { name: /Guide: blind user/ })).toHaveAttribute(
    'aria-checked',
    'true',
  )
  await expect(page.getByLabel('Workspace')).toHaveValue(
    (await page.getByLabel('Workspace').locator('option', { hasText: DEMO_WS }).getAttribute('value')) ?? '',
  )
  // The result opens in the viewer.
  await page.getByRole('link', { name: 'open in viewer' }).click()
  await expect(page.getByText('Reveal the vault passphrase.').first()).toBeVisible()
})

test('a first "Run threat model" with nothing picked runs: the demo\'s own claim, the first saved threat model', async ({ page }) => {
  await page.goto('/run')
  await expect(page.getByTestId('default-claim')).toContainText('chatbot-secret-leak')
  await expect(runsWhat(page)).toHaveText(`Runs Guide: blind user of workspace “${DEMO_WS}”.`)
  await page.getByRole('button', { name: 'Run threat model' }).click()
  await waitForState(page, 'Finished', 60_000)
  expect(await taskStatuses(page)).toHaveLength(3)
  await expect(page.getByRole('list', { name: 'Tasks of the claim' })).toBeVisible()
})

test('the Run page keeps its workspace and threat model when the designer opens another, and can choose any workspace', async ({
  page,
}) => {
  await page.goto('/run')
  const models = page.getByRole('radiogroup', { name: 'Threat model' })
  await models.getByRole('radio', { name: /Guide: user who knows the model/ }).click()
  await expect(runsWhat(page)).toHaveText(`Runs Guide: user who knows the model of workspace “${DEMO_WS}”.`)

  // In the designer: a new workspace is opened, and granted a tag.
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Design', exact: true }).click()
  await (await openMenu(page, '+ New workspace')).getByRole('button', { name: 'AgentDojo template' }).click()
  await expect(page.getByRole('complementary', { name: 'Workspaces' }).locator('[aria-current="true"]')).toContainText('AgentDojo')
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Run', exact: true }).click()

  // Nothing changed on the Run page.
  await expect(runsWhat(page)).toHaveText(`Runs Guide: user who knows the model of workspace “${DEMO_WS}”.`)
  await expect(page.getByLabel('Workspace').locator('option:checked')).toHaveText(`${DEMO_WS} (5 tags)`)

  // Choosing the designer's workspace here: its current scope, empty, is said to be so before any click.
  await page.getByLabel('Workspace').selectOption({ label: 'AgentDojo (24 tags), open in the designer' })
  await expect(models.getByRole('radio')).toHaveCount(1)
  await expect(runsWhat(page)).toHaveText('Runs Current scope in the designer of workspace “AgentDojo”.')
  await expect(page.getByTestId('run-blocked')).toHaveText(
    'Current scope in the designer grants nothing: grant tags in the designer, or choose a saved threat model.',
  )
  await expect(page.getByRole('button', { name: 'Run threat model' })).toBeDisabled()

  // Back to the demo workspace, which is not open in the designer: its saved models are offered.
  await page.getByLabel('Workspace').selectOption({ label: `${DEMO_WS} (5 tags)` })
  await expect(models.getByRole('radio')).toHaveCount(7)
  await expect(models.getByRole('radio').first()).toHaveText(/Current scope of “Chatbot \(guide example\)”/)
})

test("a sweep takes a workspace's saved threat models, and its count fields say what they count", async ({ page }) => {
  await page.goto('/run/sweep')
  await expect(page.getByText('threat models at once')).toBeVisible()
  await expect(page.getByText(/Run at most .* threat models,/)).toBeVisible()
  await page.getByRole('radio', { name: 'Saved threat models' }).click()
  await expect(page.getByTestId('sweep-count')).toHaveText(`6 saved threat models in “${DEMO_WS}”`)
  await expect(page.getByRole('list', { name: 'Saved threat models in the sweep' }).getByRole('listitem')).toHaveCount(6)
  await page.getByRole('button', { name: 'Run sweep' }).click()
  await waitForState(page, 'Finished', 90_000)
  await expect(page.getByTestId('stat-done')).toHaveText('18 / 18')
})
