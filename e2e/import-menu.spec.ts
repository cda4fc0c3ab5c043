/**
 * The Import menu leads with files; a template that would replace the forest
 * says so and asks; an imported security_tags.py names its workspace from its
 * docstring, else from its file name (as a new workspace).
 */
import { expect, test } from '@playwright/test'
import { openDesigner, openMenu } from './designerHelpers'

const MODULE = (doc: string) => `${doc}from superred.core.types.security_domain import SecurityDomain, SecurityDomainTag

AGENT_TAG = SecurityDomainTag("agent")
TOOLS_TAG = SecurityDomainTag("tools", parent=AGENT_TAG)
DOMAIN = SecurityDomain([AGENT_TAG, TOOLS_TAG])
`

test('files come first; a template over a forest asks before replacing it, and Cancel keeps it', async ({ page }) => {
  await openDesigner(page)
  const menu = await openMenu(page, 'Import')
  const items = menu.locator('.menu__item')
  await expect(items.first()).toContainText('FOREST.json file')
  await expect(items.nth(1)).toContainText('superred security_tags.py')
  await expect(menu.getByText('Replace the forest with a template')).toBeVisible()
  await expect(menu.getByRole('button', { name: /AgentDojo template/ })).toContainText('replaces the current forest')

  await menu.getByRole('button', { name: /AgentDojo template/ }).click()
  const ask = page.getByRole('alertdialog', { name: 'Replace the forest with the AgentDojo template?' })
  await expect(ask).toContainText('replaces the 5 tags of “Chatbot (guide example)”')
  await ask.getByRole('button', { name: 'Cancel' }).click()
  await expect(page.locator('.react-flow__node')).toHaveCount(5)

  await menu.getByRole('button', { name: /AgentDojo template/ }).click()
  await ask.getByRole('button', { name: 'Replace the forest' }).click()
  await expect(page.getByRole('group', { name: 'workspace_inbox', exact: true })).toBeAttached()
  await expect(page.getByRole('group', { name: 'user', exact: true })).toBeAttached()
})

test('an imported security_tags.py names its workspace from its docstring, else from its file name', async ({ page }) => {
  await openDesigner(page)
  const sidebar = page.getByRole('complementary', { name: 'Workspaces' })
  await (await openMenu(page, 'Import')).getByLabel('superred security_tags.py').setInputFiles({
    name: 'security_tags.py',
    mimeType: 'text/x-python',
    buffer: Buffer.from(MODULE('"""Travel agent: the booking tools.\n\nMore words."""\n')),
  })
  await expect(page.getByRole('status').filter({ hasText: '(named after its docstring)' })).toBeVisible()
  await expect(sidebar.locator('[aria-current="true"]')).toContainText('Travel agent: the booking tools')
  await expect(page.getByRole('group', { name: 'tools', exact: true })).toBeVisible()

  await (
    await openMenu(page, 'Import')
  )
    .getByLabel('superred security_tags.py')
    .setInputFiles({ name: 'billing_bot_tags.py', mimeType: 'text/x-python', buffer: Buffer.from(MODULE('')) })
  await expect(page.getByRole('status').filter({ hasText: '(named after its file name)' })).toBeVisible()
  await expect(sidebar.locator('[aria-current="true"]')).toContainText('billing_bot_tags')
})
