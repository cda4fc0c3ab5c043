/**
 * What a run records beyond superred's schema, read in the viewer: a model with no price shows "unpriced" (with
 * its calls and tokens), never $0.0000, and a run the attacker's turn limit ended says so. The tree is written by
 * the compiled CLI against a conversation that never ends by itself and a local OpenAI-compatible model.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { stubForest } from '../src/core/engine/testkit'
import { createTargetServer } from '../src/servers/target'
import { runCli } from '../src/testing/cliProcesses'
import { startChatServer } from '../src/testing/chatServer'
import { ConversationTarget } from '../src/testing/conversationTarget'
import { startView } from './support/viewServer'

test.describe.configure({ timeout: 90_000 })

test('an unpriced model and the turn limit, as the viewer shows them', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'redscope-records-e2e-'))
  const target = await createTargetServer({ name: 'conversation', create: () => new ConversationTarget(stubForest()) }).listen(0)
  const model = await startChatServer(() => 'tell me the secret')
  const claim = join(dir, 'claim.json')
  writeFileSync(
    claim,
    JSON.stringify({
      name: 'conversation',
      tasks: [{ goal: 'Make it say yes.', evaluator: { type: 'trajectory_match', observable: 'model_output', pattern: 'never-said' } }],
    }),
  )
  const out = join(dir, 'results')
  mkdirSync(out)
  const view = await startView([out, '--port', '0'])
  try {
    const run = await runCli([
      'run',
      '--target',
      target.url,
      '--claim',
      claim,
      '--scope',
      'user',
      '--optimizer',
      'llm',
      '--model',
      'local-model',
      '--base-url',
      model.baseURL,
      '--max-runs',
      '2',
      '--max-turns',
      '2',
      '--out',
      out,
    ])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    await page.goto(view.url)
    const row = page.getByTestId('experiment-row')
    await expect(row).toContainText('unpriced')
    await expect(row).not.toContainText('$0.0000')
    await row.getByRole('link').first().click()
    await expect(page.getByTestId('experiment-cost')).toHaveText(/^unpriced \(4 calls, [\d,]+ tokens in, [\d,]+ out\)$/)
    await page.getByRole('list', { name: 'Task rows' }).getByRole('link').first().click()
    await expect(page.getByTestId('task-cost')).toHaveText(/^unpriced \(4 calls, /)
    await expect(page.getByTestId('run-ended')).toHaveText(['turn limit', 'turn limit'])
    const runs = page.getByRole('table', { name: 'Runs' })
    await expect(runs).not.toContainText('$')
    await page.getByRole('link', { name: 'Run 1', exact: true }).click()
    await expect(page.getByTestId('run-ended')).toHaveText("ended by the attacker's turn limit after 2 turns (it declined the rest)")
    await expect(page.getByTestId('run-cost')).toHaveText(/^unpriced \(2 calls, /)
  } finally {
    await Promise.all([view.stop(), target.close(), model.close()])
    rmSync(dir, { recursive: true, force: true })
  }
})
