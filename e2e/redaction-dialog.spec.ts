/**
 * The redaction dialog, on the demo's own finding (the passphrase leaked in
 * an encoded form): it says plainly that patterns miss encoded forms, labels
 * its preview by step and field, takes the secret itself as a rule that also
 * matches spaced, reversed, base64 and hex forms, and redacts a whole step.
 */
import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { waitForState } from './runConsole/helpers'

test.use({ viewport: { width: 1440, height: 1000 } })

const SECRET = 'AZURE-FALCON-7391'
const flat = (s: string) => s.replace(/[^A-Za-z0-9]/g, '').toUpperCase()

test('the secret and its encodings are masked, a whole step is redacted, and the preview says where', async ({ page }, info) => {
  test.setTimeout(90_000)
  await page.goto('/')
  await page.getByRole('button', { name: 'Run the demo attack' }).click()
  await waitForState(page, 'Finished', 60_000)
  await page.getByRole('link', { name: 'open in viewer' }).click()
  // Task 3 (output_filter): the literal passphrase is filtered, so the leak that succeeds is encoded.
  await page.getByRole('link', { name: 'Reveal the vault passphrase.' }).nth(2).click()
  await page
    .getByRole('link', { name: /^Run \d+$/ })
    .last()
    .click()
  await expect(page.getByRole('grid', { name: /Trajectory/ })).toBeVisible()
  await page.getByRole('button', { name: 'Export finding…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Export finding' })
  await expect(dialog.getByTestId('encoding-warning')).toContainText('Patterns catch only what they spell')
  await expect(dialog.getByTestId('encoding-warning')).toContainText('spelled out, reversed, base64, hex')

  const download = async (name: string) => {
    const [file] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download HTML' }).click()])
    const path = info.outputPath(name)
    await file.saveAs(path)
    return readFileSync(path, 'utf8')
  }
  // Without the secret's rule, the export carries the leak in its encoded form.
  const before = await download('before.html')
  expect(flat(before).includes(flat(SECRET)) || flat(before).includes(flat([...SECRET].reverse().join('')))).toBe(true)

  await dialog.getByLabel('Secret value to redact').fill(SECRET)
  await dialog.getByRole('button', { name: 'Add secret rule' }).click()
  await expect(dialog.getByText('Secret value 1, also spaced, reversed, base64 and hex')).toBeVisible()
  const preview = dialog.getByRole('region', { name: 'Redaction preview' })
  await expect(preview).toContainText('secret-1')
  await expect(preview.locator('.export__where').first()).toHaveText(/^(Step \d+ · [a-z_ ]+|Evaluation · rationale)$/)
  await expect(preview).not.toContainText('finding.steps[')

  await dialog.getByLabel('Step to redact').selectOption({ index: 0 })
  await dialog.getByRole('button', { name: 'Redact', exact: true }).click()
  await expect(dialog.getByText('Step 1, whole')).toBeVisible()

  // The task's configuration is in the export, and each of its values can become a rule of its own.
  await dialog.getByRole('button', { name: 'Redact the value of defence (and its encodings)' }).click()
  await expect(dialog.getByText('Configuration value: defence, also spaced, reversed, base64 and hex')).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Redact the value of defence (and its encodings)' })).toBeDisabled()

  const after = await download('after.html')
  expect(before).toContain('<code>defence</code> = output_filter')
  expect(after).toContain('<code>defence</code> = [redacted:config-defence]')
  expect(flat(after)).not.toContain(flat(SECRET))
  expect(flat(after)).not.toContain(flat([...SECRET].reverse().join('')))
  expect(after).toContain('[redacted:secret-1]')
  expect(after).toMatch(/id="step-1"[\s\S]*?\[redacted: whole step\]/)
  // The typed secret is not kept in the page once it is a rule.
  await expect(dialog.getByLabel('Secret value to redact')).toHaveValue('')
})
