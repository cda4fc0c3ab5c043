import { expect, test } from '@playwright/test'
import { openDesigner, openMenu, tag } from './designerHelpers'

test('a click moves a tag through not granted → read & write → read only, each state in colour, words and data-access', async ({
  page,
}) => {
  await openDesigner(page)
  await page.getByRole('radio', { name: 'Pick scope' }).click()
  const sp = tag(page, 'system_prompt')
  await expect(sp).toHaveAttribute('data-access', 'none')
  await expect(sp).toContainText('not granted')
  await sp.click()
  await expect(sp).toHaveAttribute('data-access', 'scope')
  await expect(sp).toContainText('read & write')
  const red = await sp.locator('.tag-node__access').evaluate((el) => getComputedStyle(el).backgroundColor)
  await sp.click()
  await expect(sp).toHaveAttribute('data-access', 'read_only')
  await expect(sp).toContainText('read only')
  const blue = await sp.locator('.tag-node__access').evaluate((el) => getComputedStyle(el).borderColor)
  expect(red).toBe('rgb(224, 49, 49)')
  expect(blue).toBe('rgb(28, 126, 214)')
  await sp.click()
  await expect(sp).toHaveAttribute('data-access', 'none')
  // The access label is a button too, in either mode.
  await page.getByRole('radio', { name: 'Design forest' }).click()
  await tag(page, 'user').click()
  await page.keyboard.press('a')
  await expect(tag(page, 'user')).toHaveAttribute('data-access', 'scope')
  await page.getByRole('button', { name: 'user: read & write. Change access' }).click()
  await expect(tag(page, 'user')).toHaveAttribute('data-access', 'read_only')
  // In Pick scope mode, Enter on the focused tag cycles it too (keyboard only).
  await page.getByRole('radio', { name: 'Pick scope' }).click()
  await tag(page, 'user').focus()
  await page.keyboard.press('Enter')
  await expect(tag(page, 'user')).toHaveAttribute('data-access', 'none')
})

test('shades the subtree a granted tag covers, writable or visible only', async ({ page }) => {
  await openDesigner(page)
  await page.getByRole('radio', { name: 'Pick scope' }).click()
  await tag(page, 'system').click()
  await tag(page, 'system').click()
  await expect(tag(page, 'system')).toHaveAttribute('data-access', 'read_only')
  for (const child of ['system_prompt', 'model', 'model_identity']) {
    await expect(tag(page, child)).toHaveAttribute('data-coverage', 'read')
    await expect(tag(page, child)).toContainText('visible only via system')
  }
  await tag(page, 'model').click()
  await expect(tag(page, 'model')).toHaveAttribute('data-coverage', 'write')
  await expect(tag(page, 'user')).toHaveAttribute('data-coverage', 'none')
  const scope = page.getByRole('region', { name: 'Scope' })
  await expect(scope.getByLabel('Attacker reading')).toContainText(
    "Can: rewrite the model's responses. Sees, without being able to change: system. Blind to user.",
  )
  // The engine notes the sanctioned pattern (a writable tag inside a read-only ancestor), beside model.
  await expect(tag(page, 'model').locator('.tag-notes')).toContainText('model is writable inside the read-only system')
})

test('each finding appears beside the tags involved on the click that causes it, and goes on the click that fixes it', async ({ page }) => {
  await openDesigner(page)
  await page.getByRole('radio', { name: 'Pick scope' }).click()
  const findings = page.getByRole('list', { name: 'Scope findings' })
  const model = tag(page, 'model')
  const system = tag(page, 'system')
  await expect(page.getByRole('region', { name: 'Scope' })).toContainText('scope and read_only cannot both be empty')

  await system.click()
  await expect(page.getByRole('status').filter({ hasText: 'A clean threat model' })).toBeVisible()
  await model.click()
  await expect(model.locator('.tag-notes')).toContainText(
    'model and its ancestor system are both granted read & write: system already covers model',
  )
  await expect(system.locator('.tag-notes')).toContainText('involved: see model')
  await expect(findings.locator('[data-code="scope_not_antichain"]')).toHaveCount(1)

  await model.click()
  await expect(model.locator('.tag-notes')).toContainText('model is read-only, but system already grants read & write over it')
  await expect(findings.locator('[data-code="scope_not_antichain"]')).toHaveCount(0)
  await expect(findings.locator('[data-code="read_only_covered_by_scope"]')).toHaveCount(1)

  await model.click()
  await expect(model.locator('.tag-notes')).toHaveCount(0)
  await expect(system.locator('.tag-notes')).toHaveCount(0)
  await expect(findings).toHaveCount(0)
})

test('a permalink opens the same forest and scope in a fresh browser with no server state', async ({ page, browser, baseURL }) => {
  await openDesigner(page)
  await tag(page, 'model_identity').dblclick()
  await page.getByRole('textbox', { name: 'Tag name' }).fill('fingerprint')
  await page.keyboard.press('Enter')
  await page.getByRole('radio', { name: 'Pick scope' }).click()
  await tag(page, 'user').click()
  await tag(page, 'system_prompt').click()
  await tag(page, 'system_prompt').click()
  await page.getByRole('tab', { name: 'Threat models' }).click()
  await page.getByRole('button', { name: 'Copy link to this threat model' }).click()
  const link = await page.locator('#permalink').inputValue()
  expect(link.startsWith(`${baseURL}/#share=`)).toBe(true)

  const fresh = await browser.newContext()
  const other = await fresh.newPage()
  await other.goto(link)
  await expect(tag(other, 'fingerprint')).toBeVisible()
  await expect(tag(other, 'user')).toHaveAttribute('data-access', 'scope')
  await expect(tag(other, 'system_prompt')).toHaveAttribute('data-access', 'read_only')
  await expect(tag(other, 'system')).toHaveAttribute('data-access', 'none')
  await expect(other.getByRole('status').filter({ hasText: 'Opened the shared threat model' })).toBeVisible()
  // The link is consumed: the address is clean, and a reload shows the saved copy, not a second one.
  expect(new URL(other.url()).hash).toBe('')
  await other.reload()
  await expect(tag(other, 'fingerprint')).toBeVisible()
  await expect(other.getByRole('complementary', { name: 'Workspaces' }).getByRole('listitem')).toHaveCount(2)
  // A damaged link says so and harms nothing.
  await other.goto(`${baseURL}/#share=AAAAbroken`)
  await expect(other.getByRole('alert')).toContainText('This link is damaged')
  await fresh.close()
})

test('browses the distinct threat models, counted and virtualized, filters them by tag and applies one', async ({ page }) => {
  await openDesigner(page)
  await (await openMenu(page, 'Import')).getByRole('button', { name: /AgentDojo template/ }).click()
  // The chatbot forest is there: the template says it replaces it, and asks.
  await page
    .getByRole('alertdialog', { name: 'Replace the forest with the AgentDojo template?' })
    .getByRole('button', { name: 'Replace the forest' })
    .click()
  await page.getByRole('tab', { name: 'Threat models' }).click()
  await expect(page.getByTestId('combination-count')).toHaveText('351,974')
  // superred's count includes the empty scope; the page says what a sweep runs instead.
  await expect(page.locator('.combos__count')).toContainText(
    '#0 is the empty scope, which grants nothing, so a sweep of them all runs 351,973',
  )
  const list = page.getByRole('list', { name: 'Distinct threat models' })
  // Virtualized: a few dozen rows in the DOM, not 351,974.
  expect(await list.getByRole('listitem').count()).toBeLessThan(60)
  await page.getByLabel('Containing').selectOption('workspace_inbox')
  await expect(page.getByTestId('filtered-count')).toContainText('contain workspace_inbox')
  const first = list.getByRole('button').first()
  await expect(first).toHaveAccessibleName(/^Apply threat model \d+: workspace_inbox$/)
  await first.click()
  await expect(tag(page, 'workspace_inbox')).toHaveAttribute('data-access', 'scope')
  await list.evaluate((el) => {
    el.scrollTop = el.scrollHeight
  })
  await expect(list.getByRole('button').last()).toHaveAccessibleName(/workspace_inbox/)
})

test('saved threat models compare side by side, with what changes for the optimizer', async ({ page }) => {
  await openDesigner(page)
  await page.getByRole('radio', { name: 'Pick scope' }).click()
  await tag(page, 'user').click()
  await page.getByLabel('Save this threat model').fill('Blind user')
  await page.getByRole('button', { name: 'Save threat model' }).click()
  await tag(page, 'system_prompt').click()
  await tag(page, 'system_prompt').click()
  await page.getByRole('tab', { name: 'Threat models' }).click()
  const compare = page.getByRole('region', { name: 'Compare threat models' })
  await compare.getByLabel('Threat model A').selectOption({ label: 'Current scope' })
  await compare.getByLabel('Threat model B').selectOption({ label: 'Blind user' })
  const diff = compare.getByRole('table', { name: 'Differences' })
  await expect(diff.getByRole('row')).toHaveCount(2)
  await expect(diff.getByRole('row').nth(1)).toHaveText(/system_prompt\s*read only\s*not granted/)
  await page.getByRole('listitem', { name: 'Threat model Blind user' }).getByRole('button', { name: 'Apply' }).click()
  await expect(tag(page, 'system_prompt')).toHaveAttribute('data-access', 'none')
})

test('a connected target shows exactly what the optimizer would be offered, read-only controllables as observables', async ({ page }) => {
  const manifest = {
    protocol: 'superred-target-http/1',
    name: 'demo-assistant',
    description: 'A tool-using assistant',
    security_domain: [
      { name: 'system', parent: null, description: 'full control of the system side' },
      { name: 'system_prompt', parent: 'system', description: 'override the system prompt' },
      { name: 'user', parent: null, description: 'send the user message' },
    ],
    controllables: [
      { name: 'user_message', security_domain: 'user', description: "the user's message", value_type: 'text' },
      { name: 'prompt_override', security_domain: 'system_prompt', description: 'replace the system prompt', value_type: 'text' },
    ],
    observables: [
      {
        name: 'model_identity',
        security_domain: 'system',
        description: 'which model runs',
        observable_type: 'text',
        content: 'gpt-4o-mini',
      },
    ],
  }
  await page.route('http://127.0.0.1:9/manifest', (route) =>
    route.fulfill({ json: manifest, headers: { 'access-control-allow-origin': '*' } }),
  )
  await page.route('http://127.0.0.1:10/manifest', (route) => route.fulfill({ json: { protocol: 'superred-target-http/1', name: 'x' } }))
  await openDesigner(page)
  const menu = await openMenu(page, 'Import')
  await menu.getByLabel('Target URL (GET /manifest)').fill('http://127.0.0.1:10')
  await menu.getByRole('button', { name: 'Import', exact: true }).click()
  await expect(page.getByRole('alert')).toContainText(
    'GET http://127.0.0.1:10/manifest: answered 200 with a body that breaks the protocol: security_domain:',
  )
  await menu.getByLabel('Target URL (GET /manifest)').fill('http://127.0.0.1:9')
  await menu.getByRole('button', { name: 'Import', exact: true }).click()
  await expect(page.locator('.react-flow__node')).toHaveCount(3)

  await page.getByRole('radio', { name: 'Pick scope' }).click()
  await tag(page, 'user').click()
  await tag(page, 'system').click()
  await tag(page, 'system').click()
  const offered = page.getByRole('region', { name: 'Offered to the optimizer' })
  await expect(offered.locator('.offered__group').nth(0)).toContainText('user_message')
  await expect(offered.locator('.offered__group').nth(0)).not.toContainText('prompt_override')
  await expect(offered.locator('.offered__group').nth(1)).toContainText('model_identity')
  await expect(offered.locator('.offered__group').nth(1).locator('li', { hasText: 'prompt_override' })).toContainText(
    'read-only controllable',
  )

  // The same target from a manifest file; a bad one is refused naming the field.
  await page.getByRole('button', { name: 'Disconnect' }).click()
  const file = async (name: string, json: unknown) =>
    (await openMenu(page, 'Import'))
      .getByLabel('Target manifest file')
      .setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(json)) })
  await file('broken.json', { ...manifest, controllables: [{ name: 'x', security_domain: 'nope' }] })
  await expect(page.getByRole('alert')).toContainText(
    "broken.json is not a target manifest: controllables[0].security_domain: tag 'nope' is not in security_domain",
  )
  // Into this workspace (its forest replaced by the same forest), so the scope granted above stays.
  await (await openMenu(page, 'Import')).getByRole('radio', { name: /replace this workspace's forest/ }).check()
  await file('assistant.json', manifest)
  await expect(page.getByRole('status').filter({ hasText: 'Connected to demo-assistant (from assistant.json)' })).toBeVisible()
  await expect(offered.locator('.offered__group').nth(0)).toContainText('user_message')
})
