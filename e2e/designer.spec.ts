import { expect, test } from '@playwright/test'
import { startScriptedTarget } from '../src/testing/scriptedTarget'
import { centre, downloadText, dragTo, openDesigner, openMenu, outsideCanvas, settledBox, tag } from './designerHelpers'

const CHATBOT = [
  { name: 'system', parent: null, description: 'full control of the system side' },
  { name: 'system_prompt', parent: 'system', description: 'override the system prompt' },
  { name: 'model', parent: 'system', description: "rewrite the model's responses" },
  { name: 'model_identity', parent: 'system', description: 'know which model is in use' },
  { name: 'user', parent: null, description: 'send the user message and see the reply' },
]

test('builds the chatbot forest from scratch with the keyboard, and exports exactly the guide forest', async ({ page }) => {
  await openDesigner(page)
  await (await openMenu(page, '+ New workspace')).getByRole('button', { name: 'Empty forest' }).click()
  await expect(page.getByText('This forest is empty.')).toBeVisible()

  await page.getByRole('button', { name: 'Add a root tag' }).click()
  await page.keyboard.type('system')
  await page.keyboard.press('Enter')
  // Tab adds a child, Enter a sibling after it, each opening its name for typing.
  await page.keyboard.press('Tab')
  await page.keyboard.type('system_prompt')
  await page.keyboard.press('Enter')
  for (const name of ['model', 'model_identity']) {
    await page.keyboard.press('Enter')
    await page.keyboard.type(name)
    await page.keyboard.press('Enter')
  }
  await page.keyboard.press('n')
  await page.keyboard.type('user')
  await page.keyboard.press('Enter')

  await page.getByRole('button', { name: 'Fit to view' }).click()
  for (const t of CHATBOT) {
    await tag(page, t.name).click()
    const description = page.locator('#inspector-description')
    await description.fill(t.description)
    await description.blur()
    await expect(tag(page, t.name)).toContainText(t.description)
  }
  await expect(page.locator('.react-flow__edge')).toHaveCount(3)
  await page.locator('.react-flow__pane').click({ position: { x: 20, y: 20 } })
  await expect(page.getByRole('region', { name: 'Forest', exact: true })).toContainText(
    "5 tags in 2 trees · 18 distinct threat models by superred's count, the empty one included (17 grant something: what a sweep and the frontier search run)",
  )

  const file = await downloadText(page, async () => (await openMenu(page, 'Export')).getByRole('button', { name: 'FOREST.json' }).click())
  expect(JSON.parse(file.text)).toEqual({ tags: CHATBOT })
})

test('renames in place and shows advice beside the tag while typing and after', async ({ page }) => {
  await openDesigner(page)
  await tag(page, 'user').dblclick()
  const input = page.getByRole('textbox', { name: 'Tag name' })
  await input.fill('model')
  await expect(page.getByRole('alert').filter({ hasText: 'Another tag is already named model' })).toBeVisible()
  await input.fill('malicious_user')
  await input.press('Enter')
  await expect(tag(page, 'malicious_user')).toContainText('reads like an attacker persona')
  // Every edit is undoable, a rename too.
  await page.keyboard.press('Control+z')
  await expect(tag(page, 'user')).toBeVisible()
  await expect(tag(page, 'user').locator('.tag-notes')).toHaveCount(0)
})

test('reparents by dragging onto a tag and onto empty canvas, and reorders siblings by where it lands', async ({ page }) => {
  await openDesigner(page)
  const parentOf = async (name: string) => {
    await tag(page, name).click()
    return page.locator('#inspector-parent option:checked').textContent()
  }
  await dragTo(page, tag(page, 'user'), await centre(tag(page, 'model')))
  await expect(page.locator('.react-flow__edge')).toHaveCount(4)
  expect(await parentOf('user')).toBe('model')
  // Independent channels are independent trees: the guide's advice shows beside it.
  await expect(tag(page, 'user')).toContainText('independent channels are independent trees')

  const canvas = (await page.locator('.react-flow__pane').boundingBox())!
  await dragTo(page, tag(page, 'user'), { x: canvas.x + canvas.width - 60, y: canvas.y + 40 })
  await expect(page.locator('.react-flow__edge')).toHaveCount(3)
  expect(await parentOf('user')).toBe('(none: a root, an independent channel)')

  // Dropping system_prompt on the right edge of model_identity makes it the sibling after it: the last one. Fitted
  // first: the pans that kept the moved tag in sight and clear of the overview map can leave system_prompt off the edge.
  await page.keyboard.press('f')
  const mi = await settledBox(tag(page, 'model_identity'))
  await dragTo(page, tag(page, 'system_prompt'), { x: mi.x + mi.width * 0.9, y: mi.y + mi.height / 2 })
  await tag(page, 'system_prompt').click()
  await expect(page.getByText('Order among siblings (3 of 3')).toBeVisible()
  // A drop inside its own subtree is refused: nothing changes.
  await dragTo(page, tag(page, 'system'), await centre(tag(page, 'model')))
  await expect(page.locator('.react-flow__edge')).toHaveCount(3)
  expect(await parentOf('system')).toBe('(none: a root, an independent channel)')
})

test('deletes a subtree and brings it back with undo, then redo removes it again', async ({ page }) => {
  await openDesigner(page)
  await tag(page, 'system').click()
  await page.keyboard.press('Delete')
  await expect(page.locator('.react-flow__node')).toHaveCount(1)
  await expect(tag(page, 'model')).toHaveCount(0)
  await page.keyboard.press('Control+z')
  await expect(page.locator('.react-flow__node')).toHaveCount(5)
  await expect(page.locator('.react-flow__edge')).toHaveCount(3)
  await page.keyboard.press('Control+Shift+z')
  await expect(page.locator('.react-flow__node')).toHaveCount(1)
  await page.getByRole('button', { name: 'Undo' }).click()
  await expect(tag(page, 'model_identity')).toBeVisible()
  await page.getByRole('button', { name: 'Redo' }).click()
  await expect(tag(page, 'model_identity')).toHaveCount(0)
})

test('after a reload everything is back: the forest, the scope, read_only, saved threat models and every workspace', async ({ page }) => {
  await openDesigner(page)
  await tag(page, 'model').dblclick()
  await page.getByRole('textbox', { name: 'Tag name' }).fill('llm_output')
  await page.keyboard.press('Enter')
  await page.getByRole('radio', { name: 'Pick scope' }).click()
  await tag(page, 'user').click()
  await tag(page, 'system_prompt').click()
  await tag(page, 'system_prompt').click()
  await page.getByLabel('Save this threat model').fill('User who reads the prompt')
  await page.getByLabel('Notes').fill('the guide: can see the system prompt but not change it')
  await page.getByRole('button', { name: 'Save threat model' }).click()
  await (await openMenu(page, '+ New workspace')).getByRole('button', { name: 'AgentDojo template' }).click()
  await expect(tag(page, 'workspace_inbox')).toBeVisible()

  await page.reload()
  await expect(tag(page, 'workspace_inbox')).toBeVisible()
  const list = page.getByRole('complementary', { name: 'Workspaces' })
  await expect(list.getByRole('listitem')).toHaveCount(2)
  await list.getByRole('button', { name: /^Chatbot/ }).click()
  await expect(tag(page, 'llm_output')).toBeVisible()
  await expect(tag(page, 'user')).toHaveAttribute('data-access', 'scope')
  await expect(tag(page, 'system_prompt')).toHaveAttribute('data-access', 'read_only')
  await page.getByRole('tab', { name: 'Threat models' }).click()
  const saved = page.getByRole('listitem', { name: 'Threat model User who reads the prompt' })
  await expect(saved.getByLabel('Notes for User who reads the prompt')).toHaveValue(
    'the guide: can see the system prompt but not change it',
  )
  await expect(saved.getByRole('button', { name: 'Applied' })).toBeVisible()
})

test('imports and exports superred Python and FOREST.json; a bad file gets a message naming the line or field', async ({ page }) => {
  await openDesigner(page)
  const py = await downloadText(page, async () =>
    (await openMenu(page, 'Export')).getByRole('button', { name: 'security_tags.py (superred)' }).click(),
  )
  expect(py.name).toBe('security_tags.py')
  expect(py.text).toContain(
    'SYSTEM_PROMPT_TAG: SecurityDomainTag = SecurityDomainTag("system_prompt", parent=SYSTEM_TAG)\n"""override the system prompt"""',
  )
  expect(py.text).toContain('7. A scope is an antichain')

  const module = [
    'from superred.core.types.security_domain import SecurityDomain, SecurityDomainTag',
    'TOOLS_TAG = SecurityDomainTag("tools")',
    '"""control every tool output"""',
    'INBOX_TAG = SecurityDomainTag("workspace_inbox", parent=TOOLS_TAG)  # a poisoned email',
    'DOMAIN = SecurityDomain([TOOLS_TAG, INBOX_TAG])',
  ].join('\n')
  await (
    await openMenu(page, 'Import')
  )
    .getByLabel('superred security_tags.py')
    .setInputFiles({ name: 'security_tags.py', mimeType: 'text/x-python', buffer: Buffer.from(module) })
  await expect(tag(page, 'workspace_inbox')).toContainText('a poisoned email')
  await expect(tag(page, 'tools')).toContainText('control every tool output')
  await expect(tag(page, 'system')).toHaveCount(0)

  await (await openMenu(page, 'Import')).getByLabel('superred security_tags.py').setInputFiles({
    name: 'broken.py',
    mimeType: 'text/x-python',
    buffer: Buffer.from('A = SecurityDomainTag("a")\n\nB = SecurityDomainTag("b", parent=C)\n'),
  })
  await expect(page.getByRole('alert')).toContainText('broken.py: line 3: parent=C is not a tag assigned above this line')
  await expect(tag(page, 'tools')).toBeVisible()

  const json = await downloadText(page, async () => (await openMenu(page, 'Export')).getByRole('button', { name: 'FOREST.json' }).click())
  expect(JSON.parse(json.text).tags.map((t: { name: string }) => t.name)).toEqual(['tools', 'workspace_inbox'])
  const forest = {
    tags: [
      { name: 'a', parent: null, description: 'x' },
      { name: 'b', parent: 'a' },
    ],
  }
  await (
    await openMenu(page, 'Import')
  )
    .getByLabel('FOREST.json file')
    .setInputFiles({ name: 'f.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(forest)) })
  await expect(page.locator('.react-flow__edge')).toHaveCount(1)
  await (
    await openMenu(page, 'Import')
  )
    .getByLabel('FOREST.json file')
    .setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"tags": [{"name": "a"}, {"name": 7}]}') })
  await expect(page.getByRole('alert')).toContainText('bad.json: not a forest file: tags[1].name')
})

test('exports the diagram as SVG and PNG', async ({ page }) => {
  await openDesigner(page)
  const svg = await downloadText(page, async () => (await openMenu(page, 'Export')).getByRole('button', { name: 'Diagram as SVG' }).click())
  expect(svg.name).toMatch(/\.svg$/)
  expect(svg.text.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true)
  expect(svg.text).toContain('system_prompt')
  const [png] = await Promise.all([
    page.waitForEvent('download'),
    (await openMenu(page, 'Export')).getByRole('button', { name: 'Diagram as PNG' }).click(),
  ])
  expect(png.suggestedFilename()).toMatch(/\.png$/)
  const { readFile } = await import('node:fs/promises')
  const bytes = await readFile((await png.path())!)
  expect([...bytes.subarray(1, 4)].map((b) => String.fromCharCode(b)).join('')).toBe('PNG')
  expect(bytes.length).toBeGreaterThan(5000)
})

test('lists workspaces, renames, switches and deletes them', async ({ page }) => {
  await openDesigner(page)
  const sidebar = page.getByRole('complementary', { name: 'Workspaces' })
  await (await openMenu(page, '+ New workspace')).getByRole('button', { name: 'Empty forest' }).click()
  await expect(sidebar.getByRole('listitem')).toHaveCount(2)
  await sidebar.getByRole('button', { name: 'Rename Untitled workspace' }).click()
  await sidebar.getByRole('textbox', { name: 'Workspace name' }).fill('Scratch')
  await sidebar.getByRole('textbox', { name: 'Workspace name' }).press('Enter')
  await expect(sidebar.getByRole('button', { name: /^Scratch/ })).toHaveAttribute('aria-current', 'true')
  await sidebar.getByRole('button', { name: /^Chatbot/ }).click()
  await expect(tag(page, 'system')).toBeVisible()
  await sidebar.getByRole('button', { name: 'Delete Scratch' }).click()
  await sidebar.getByRole('button', { name: 'Delete?' }).click()
  await expect(sidebar.getByRole('listitem')).toHaveCount(1)
  await page.reload()
  await expect(sidebar.getByRole('listitem')).toHaveCount(1)
  await expect(tag(page, 'system')).toBeVisible()
})

test('multi-selects with Shift-click, moves the selection with one drag, deletes it with one key and undoes it', async ({ page }) => {
  await openDesigner(page)
  await tag(page, 'system_prompt').click()
  await tag(page, 'model').click({ modifiers: ['Shift'] })
  await expect(page.getByRole('region', { name: '2 tags selected' })).toBeVisible()
  await dragTo(page, tag(page, 'model'), await centre(tag(page, 'user')))
  await expect(page.locator('.react-flow__edge')).toHaveCount(3)
  // The reparent relayouts the forest, and the canvas follows the moved tags wherever the new layout puts them.
  await expect.poll(() => outsideCanvas(page, ['system_prompt', 'model']), { timeout: 10_000 }).toEqual([])
  for (const name of ['system_prompt', 'model']) {
    // A click while the tags still glide to their new places can land on the canvas: click until selected.
    await expect(async () => {
      await tag(page, name).click()
      await expect(page.locator('#inspector-parent option:checked')).toHaveText('user', { timeout: 1_000 })
    }).toPass({ timeout: 10_000 })
  }
  await tag(page, 'system_prompt').click()
  await tag(page, 'model').click({ modifiers: ['Shift'] })
  await page.keyboard.press('Delete')
  await expect(page.locator('.react-flow__node')).toHaveCount(3)
  await page.keyboard.press('Control+z')
  await expect(page.locator('.react-flow__node')).toHaveCount(5)
})

test('keeps moved tags in sight: when a reparent relayouts them past the edge of the canvas, the canvas pans to them', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 })
  await openDesigner(page)
  await tag(page, 'system_prompt').click()
  // Close in, so that most of the forest lies beyond the edges.
  for (let i = 0; i < 4; i++) await page.keyboard.press('+')
  await expect.poll(() => outsideCanvas(page), { timeout: 10_000 }).not.toEqual([])
  // The inspector's parent list: the tag moves under user, which the relayout puts somewhere else.
  await page.locator('#inspector-parent').selectOption({ label: 'user' })
  await expect(page.locator('.react-flow__edge')).toHaveCount(3)
  await expect.poll(() => outsideCanvas(page, ['system_prompt']), { timeout: 10_000 }).toEqual([])
  // The pan is the least that shows the moved tag, not a fit: the rest stays zoomed in, partly off screen.
  expect((await outsideCanvas(page)).length).toBeGreaterThan(0)
})

test('a tag brought on screen by the keyboard is not left under the overview map', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 })
  await openDesigner(page)
  const map = page.locator('.react-flow__minimap')
  await expect(map).toBeVisible()
  await tag(page, 'system_prompt').click()
  for (let i = 0; i < 3; i++) await page.keyboard.press('+')
  // Drag the canvas by an empty spot until the next sibling lies just past the bottom-right corner, where the least pan
  // that brings it back would leave it under the map.
  const canvas = (await page.locator('.forest-canvas').boundingBox())!
  await expect(async () => {
    const model = (await tag(page, 'model').boundingBox())!
    const empty = await page.evaluate(({ x, y, width, height }) => {
      for (let py = y + 40; py < y + height - 40; py += 20) {
        for (let px = x + 40; px < x + width - 40; px += 20) {
          if (document.elementFromPoint(px, py)?.classList.contains('react-flow__pane')) return { x: px, y: py }
        }
      }
      return null
    }, canvas)
    expect(empty).not.toBeNull()
    const by = { x: canvas.x + canvas.width + 10 - model.x, y: canvas.y + canvas.height + 10 - model.y }
    const step = { x: Math.max(-300, Math.min(300, by.x)), y: Math.max(-300, Math.min(300, by.y)) }
    await page.mouse.move(empty!.x, empty!.y)
    await page.mouse.down()
    await page.mouse.move(empty!.x + step.x, empty!.y + step.y, { steps: 8 })
    await page.mouse.up()
    const now = (await tag(page, 'model').boundingBox())!
    expect(now.x).toBeGreaterThan(canvas.x + canvas.width)
    expect(now.y).toBeGreaterThan(canvas.y + canvas.height)
  }).toPass({ timeout: 15_000 })
  await expect(page.locator('#inspector-parent option:checked')).toHaveText('system')
  await page.keyboard.press('ArrowRight')
  await expect(tag(page, 'model')).toBeFocused()
  const a = await settledBox(tag(page, 'model'))
  expect(await outsideCanvas(page, ['model'])).toEqual([])
  const b = (await map.boundingBox())!
  expect(a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y).toBe(true)
})

test('the empty forest offers "Import from target URL": a running target\'s forest in one step', async ({ page }) => {
  const target = await startScriptedTarget()
  try {
    await openDesigner(page)
    await (await openMenu(page, '+ New workspace')).getByRole('button', { name: 'Empty forest' }).click()
    const card = page.locator('.empty-forest')
    await card.getByRole('button', { name: 'Import from target URL' }).click()
    await card.getByLabel('Target URL (GET /manifest)').fill(target.url)
    await card.getByRole('button', { name: 'Import', exact: true }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Connected to scripted' })).toBeVisible()
    for (const name of ['system', 'user', 'tools']) await expect(tag(page, name)).toBeAttached()
    await expect(page.getByText('This forest is empty.')).toHaveCount(0)
  } finally {
    await target.close()
  }
})
