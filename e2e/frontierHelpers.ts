/** Shared by the frontier and sweep specs: the demo assistant served by the CLI, and the Run page set up to sweep it. */
import { expect, type Page } from '@playwright/test'
import type { CliProcesses } from '../src/testing/cliProcesses'
import { ASSISTANT_FOREST } from '../src/reference-targets/assistant/forest'
import { openDesigner, openMenu } from './designerHelpers'
import { onlyTemplates, pickClaim, setField } from './runConsole/helpers'

/** The demo assistant's forest imported, its target and exfiltration claim chosen (naive template, one run a task), on the sweep page. */
export async function openSweepOnAssistant(page: Page) {
  await openDesigner(page)
  await (
    await openMenu(page, 'Import')
  )
    .getByLabel('FOREST.json file')
    .setInputFiles({ name: 'assistant.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(ASSISTANT_FOREST)) })
  await expect(page.getByRole('group', { name: 'bank_account', exact: true })).toBeVisible()
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Run', exact: true }).click()
  await page.getByRole('radio', { name: /Tool-using assistant/ }).click()
  await expect(page.getByTestId('manifest')).toContainText('redscope-assistant')
  await pickClaim(page, 'assistant-exfiltration.json')
  await onlyTemplates(page, ['naive'])
  await setField(page, 'Max runs per task', '1')
  await page.getByRole('link', { name: 'Sweep threat models' }).click()
}

/** `redscope serve-target assistant` on a free loopback port (stopped with `procs`); its address once it serves. */
export async function serveAssistant(procs: CliProcesses, ...flags: string[]): Promise<string> {
  const served = procs.start(['serve-target', 'assistant', '--port', '0', ...flags])
  return (await served.waitFor(/serving assistant at (http:\/\/127\.0\.0\.1:\d+)/))[1]
}
