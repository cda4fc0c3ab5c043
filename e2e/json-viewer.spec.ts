/**
 * Tool calls, their JSON arguments and environment snapshots in the viewer
 * (issue 12): pretty and folding, long strings wrapped, big snapshots folded
 * past their root, copyable, and every key and value inert text. The run is
 * shaped like an AgentDojo banking task through the bridge (e2e/support/toolCallTree.ts).
 */
import { expect, test, type Locator, type Page } from '@playwright/test'
import { EXP } from './support/resultsTree'
import { TRANSACTIONS, writeToolCallTree } from './support/toolCallTree'

const row = (page: Page, item: number) => page.locator(`[role="row"][data-event="${item}"]`)
const panel = (page: Page) => page.getByRole('complementary', { name: 'Selected step' })
/** A field of the selected step (request, answer, content, ...). */
const field = (page: Page, label: string) =>
  panel(page)
    .locator('.value')
    .filter({ has: page.locator('.value__label', { hasText: new RegExp(`^${label}$`) }) })
/** A node's fold button, by its key. */
const node = (scope: Locator, key: string) =>
  scope
    .locator('.json__toggle')
    .filter({ has: scope.page().locator('.json__key, .json__index', { hasText: new RegExp(`^${key}$`) }) })
    .first()

async function openToolCallRun(page: Page, dir: string) {
  const g = { dialogs: [] as string[] }
  page.on('dialog', (d) => {
    g.dialogs.push(d.message())
    void d.dismiss()
  })
  await page.goto('/results')
  await page.getByTestId('folder-input').setInputFiles(dir)
  await page.getByRole('link', { name: EXP }).click()
  await page.getByRole('link', { name: /^leak/ }).click()
  await page.getByRole('link', { name: 'Run 1', exact: true }).click()
  await expect(page.getByRole('grid', { name: /Trajectory/ })).toBeVisible()
  return g
}

async function expectInert(page: Page, g: { dialogs: string[] }) {
  await page.waitForTimeout(200)
  expect(await page.locator('.results img, .results script, .results iframe, .results svg[onload]').count()).toBe(0)
  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned ?? null)).toBeNull()
  expect(g.dialogs).toEqual([])
}

test('a tool call read: its request and its JSON answer are trees, the arguments unfolded, the markup text', async ({ page }, info) => {
  const g = await openToolCallRun(page, writeToolCallTree(info.outputPath('tree')))
  await row(page, 4).click()
  // The request is a string holding JSON (json.dumps of function and args): a tree, marked as such.
  const request = field(page, 'request')
  await expect(request.getByTestId('json-tree')).toContainText('get_most_recent_transactions')
  await expect(node(request, 'args')).toHaveAttribute('aria-expanded', 'true')
  await expect(request.locator('.json__badge')).toHaveText('JSON text')
  await expect(request.getByTestId('json-tree')).toContainText('n: 100')
  // The answer, 30 transactions as a JSON array, is too big to start open below its root: each shows its size.
  const answer = field(page, 'answer')
  await expect(node(answer, '3')).toHaveAttribute('aria-expanded', 'false')
  await expect(answer.locator('.json__summary').first()).toHaveText('{ 7 keys }')
  await node(answer, '3').click()
  await expect(node(answer, '3')).toHaveAttribute('aria-expanded', 'true')
  // The hostile subject of transaction 4 is a string: shown, not run.
  await expect(answer.locator('.json__string', { hasText: '<img src=x onerror=' })).toBeVisible()
  await node(answer, '3').click()
  await expect(answer.locator('.json__string', { hasText: '<img src=x onerror=' })).toHaveCount(0)
  // The raw text, one click away.
  await answer.getByRole('button', { name: 'Show as text' }).click()
  await expect(answer.getByTestId('value-text')).toContainText(`"id":${TRANSACTIONS[0].id}`)
  await expectInert(page, g)
})

test('a chat message unfolds down to its tool call, whose arguments string unfolds as JSON', async ({ page }, info) => {
  const g = await openToolCallRun(page, writeToolCallTree(info.outputPath('tree')))
  await row(page, 3).click()
  const content = field(page, 'content')
  await expect(node(content, 'function')).toHaveAttribute('aria-expanded', 'true')
  await expect(content).toContainText('banking__get_most_recent_transactions')
  // `arguments` is a string ('{"n": 100}'): one more level down, it starts folded and opens as a tree.
  await expect(node(content, 'arguments')).toHaveAttribute('aria-expanded', 'false')
  await node(content, 'arguments').click()
  await expect(content.locator('[aria-label="arguments"]')).toContainText('n: 100')
  await expectInert(page, g)
})

test('an environment snapshot starts folded past its root; unfold, fold all, unfold all, copy; rows keep their height', async ({
  page,
  context,
}, info) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const g = await openToolCallRun(page, writeToolCallTree(info.outputPath('tree')))
  await row(page, 7).click()
  const content = field(page, 'content')
  await expect(node(content, 'bank_account')).toHaveAttribute('aria-expanded', 'false')
  await expect(node(content, 'bank_account').locator('xpath=../span[contains(@class, "json__summary")]')).toHaveText('{ 4 keys }')
  // A small store starts open, its fields at once.
  await expect(node(content, 'user_account')).toHaveAttribute('aria-expanded', 'true')
  await expect(content).toContainText('Cupertino')
  await node(content, 'bank_account').click()
  await expect(node(content, 'transactions')).toHaveAttribute('aria-expanded', 'false')
  await node(content, 'transactions').click()
  await expect(content.locator('[aria-label="transactions"] > li')).toHaveCount(30)
  // The small filesystem store starts open too; its long bill wraps inside the panel instead of widening it.
  await expect(node(content, 'files')).toHaveAttribute('aria-expanded', 'true')
  const bill = content.locator('.json__string', { hasText: 'Bill for the month' })
  await bill.getByRole('button', { name: /^more/ }).click()
  const box = (await bill.boundingBox())!
  const tree = (await content.locator('.value__tree').boundingBox())!
  expect(box.width).toBeLessThanOrEqual(tree.width)
  expect(box.height).toBeGreaterThan(40)
  // A key with markup in it is text too.
  await expect(content.locator('.json__key', { hasText: '<svg onload=' })).toHaveCount(1)

  await content.getByRole('button', { name: 'Fold all', exact: true }).click()
  for (const k of ['bank_account', 'filesystem', 'user_account']) await expect(node(content, k)).toHaveAttribute('aria-expanded', 'false')
  await content.getByRole('button', { name: 'Unfold all', exact: true }).click()
  await expect(node(content, 'transactions')).toHaveAttribute('aria-expanded', 'true')
  await expect(node(content, 'scheduled_transactions')).toHaveAttribute('aria-expanded', 'true')

  // Copy one node: pretty JSON of that node only.
  await content.getByRole('button', { name: 'Copy user_account as JSON' }).click()
  const copied = await page.evaluate(() => navigator.clipboard.readText())
  expect(JSON.parse(copied)).toMatchObject({ first_name: 'Emma', city: 'Cupertino' })
  expect(copied).toContain('\n  "last_name": "Johnson"')

  // The panel grew; the virtualized rows did not.
  const heights = await page.locator('[role="row"][data-event]').evaluateAll((rows) => rows.map((r) => r.getBoundingClientRect().height))
  expect(new Set(heights)).toEqual(new Set([60]))
  await expectInert(page, g)
})

test('a write the agent made reads at once: function and arguments open, the injected script as text', async ({ page }, info) => {
  const g = await openToolCallRun(page, writeToolCallTree(info.outputPath('tree')))
  await row(page, 6).click()
  const content = field(page, 'content')
  await expect(node(content, 'args')).toHaveAttribute('aria-expanded', 'true')
  await expect(content.locator('.json__leaf', { hasText: 'recipient' })).toContainText('US133000000121212121212')
  await expect(content.locator('.json__string', { hasText: '<script>' })).toHaveCount(1)
  // Stepping to the next step starts its own trees by their own sizes.
  await page.keyboard.press('j')
  await expect(row(page, 7)).toHaveAttribute('aria-selected', 'true')
  await expect(node(field(page, 'content'), 'bank_account')).toHaveAttribute('aria-expanded', 'false')
  await expectInert(page, g)
})
