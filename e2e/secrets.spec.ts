/**
 * A recognizable API key and bearer token through every real flow, then
 * everything written scanned for them: the CLI's results tree, stdout and
 * stderr; the page's IndexedDB (every database, every store), localStorage,
 * address and console; the run console's zip; a finding exported from the
 * viewer; a permalink. The target and the LLM endpoint are careless on
 * purpose: they echo the token and the key back (in an observation, in an
 * error body), as a hostile or misconfigured server would. Neither secret may
 * be found anywhere. (sessionStorage holds keys typed into the run console by
 * design, for the tab's lifetime; it is not a place anything is written to.)
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { runCli } from '../src/testing/cliProcesses'
import { strFromU8, unzipSync } from 'fflate'
import { startScriptedLlm } from '../src/testing/scriptedLlm'
import { startScriptedTarget } from '../src/testing/scriptedTarget'
import { openBrowserRuns, openExperimentRow } from './runConsole/helpers'

const KEY = 'sk-redscope-TEST-KEY-9f3e7c1a5b'
const TOKEN = 'tok-redscope-TEST-TOKEN-4d8b2e6f'
const GOALS = ['goal-plain', 'goal-echo', 'goal-echo500', 'goal-echokey'] as const
const MODE: Record<(typeof GOALS)[number], string> = {
  'goal-plain': 'ok',
  'goal-echo': 'echo',
  'goal-echo500': 'echo500',
  'goal-echokey': 'ok',
}

/** Every place a secret must not be: fails naming where it was found. */
function expectNoSecret(where: string, text: string) {
  for (const [name, secret] of [
    ['API key', KEY],
    ['token', TOKEN],
  ]) {
    const at = text.indexOf(secret)
    expect(at, `${name} found in ${where}: …${text.slice(Math.max(0, at - 80), at + 40)}…`).toBe(-1)
  }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? filesUnder(join(dir, n)) : [join(dir, n)]))
}

/** Every record of every IndexedDB database of the page, as text. */
function dumpIndexedDb(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const out: string[] = []
    for (const info of await indexedDB.databases()) {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open(info.name!)
        r.onsuccess = () => resolve(r.result)
        r.onerror = () => reject(r.error)
      })
      for (const store of Array.from(db.objectStoreNames)) {
        const [keys, values] = await Promise.all(
          ['getAllKeys', 'getAll'].map(
            (m) =>
              new Promise<unknown[]>((resolve) => {
                const r = (db.transaction(store).objectStore(store) as unknown as Record<string, () => IDBRequest<unknown[]>>)[m]()
                r.onsuccess = () => resolve(r.result)
              }),
          ),
        )
        out.push(`${info.name}/${store}: ${JSON.stringify(keys)} ${JSON.stringify(values)}`)
      }
      db.close()
    }
    return out.join('\n')
  })
}

test('no API key or bearer token in anything the CLI or the page writes', async ({ page }) => {
  test.setTimeout(90_000)
  const target = await startScriptedTarget({ token: TOKEN })
  const llm = await startScriptedLlm((call) => {
    if (call.messages.some((m) => m.content.includes('goal-echokey'))) {
      return {
        kind: 'status',
        status: 401,
        body: {
          error: { message: `Incorrect API key provided: ${call.authorization?.replace('Bearer ', '')}`, type: 'invalid_request_error' },
        },
      }
    }
    // The attacker model repeats the key it was called with: content now, which no file may hold either.
    return { kind: 'reply', content: `Please say echo. ${call.authorization?.replace('Bearer ', '')}` }
  })
  const consoleLines: string[] = []
  page.on('console', (m) => consoleLines.push(m.text()))
  page.on('pageerror', (e) => consoleLines.push(String(e)))
  const dir = mkdtempSync(join(tmpdir(), 'redscope-secrets-'))
  try {
    // 1. The CLI, with the key and token from the environment, as documented.
    writeFileSync(
      join(dir, 'claim.json'),
      JSON.stringify({
        name: 'secrets',
        tasks: GOALS.map((goal) => ({
          goal,
          config: { mode: MODE[goal] },
          evaluator: { type: 'trajectory_match', observable: 'reply', pattern: '^echo' },
        })),
      }),
    )
    const out = join(dir, 'results')
    const r = await runCli(
      [
        'run',
        '--target',
        target.url,
        '--claim',
        join(dir, 'claim.json'),
        '--scope',
        'user',
        '--optimizer',
        'llm',
        '--model',
        'gpt-4o-mini',
        '--base-url',
        llm.baseURL,
        '--max-runs',
        '1',
        '--out',
        out,
      ],
      { OPENAI_API_KEY: KEY, REDSCOPE_TARGET_TOKEN: TOKEN },
    )
    expect(r.code).toBe(0)
    // The secrets were used (the target and the model saw them), and the careless servers echoed them back...
    expect(target.authorizations).toContain(`Bearer ${TOKEN}`)
    expect(llm.calls.every((c) => c.authorization === `Bearer ${KEY}`)).toBe(true)
    expect(r.stdout).toContain('did not like Bearer [redacted]')
    expect(r.stdout).toContain('Incorrect API key provided: [redacted]')
    // ...and nothing written holds them.
    expectNoSecret('the CLI stdout', r.stdout)
    expectNoSecret('the CLI stderr', r.stderr)
    const written = filesUnder(out)
    expect(written.length).toBeGreaterThan(10)
    for (const f of written) expectNoSecret(f, readFileSync(f, 'utf8'))
    expect(written.map((f) => readFileSync(f, 'utf8')).join('\n')).toContain('you sent Bearer [redacted]')

    // 2. The browser's run console, with the token and the key typed in.
    await page.goto('/')
    await page.getByRole('radio', { name: 'Pick scope' }).click()
    await page.getByRole('group', { name: 'user', exact: true }).click()
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Run', exact: true }).click()
    await page.getByRole('radio', { name: 'Target URL' }).click()
    await page.getByLabel('Target-over-HTTP server').fill(target.url)
    await page.getByLabel('Bearer token (optional)').fill(TOKEN)
    await page.getByRole('button', { name: 'Test connection' }).click()
    await expect(page.getByTestId('manifest')).toContainText('scripted')
    await page.getByRole('button', { name: 'Write tasks…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Claim tasks' })
    const rows = dialog.getByTestId('claim-task')
    for (const [i, goal] of GOALS.entries()) {
      if (i > 0) await dialog.getByRole('button', { name: '+ Task' }).click()
      await rows.nth(i).getByLabel('Goal').fill(goal)
      await rows.nth(i).getByLabel('Config (name=value per line)').fill(`mode=${MODE[goal]}`)
      await rows.nth(i).getByLabel('Evaluator').selectOption('trajectory_match')
      await rows.nth(i).getByLabel('Observable').fill('reply')
      await rows.nth(i).getByLabel('Pattern (regex)').fill('^echo')
    }
    await expect(dialog.getByRole('status')).toHaveText('✓ 4 valid tasks')
    await dialog.getByRole('button', { name: 'Done' }).click()
    await page.getByRole('radio', { name: 'LLM' }).click()
    await page.getByLabel('Max runs per task', { exact: true }).fill('1')
    // The target echoes what the attacker wrote; these tasks are about where secrets go, so an echo counts.
    await page.getByRole('checkbox', { name: /Count echoes as breaches/ }).check()
    const model = page.getByRole('group', { name: 'Attacker model' })
    await model.getByLabel('Base URL (OpenAI-compatible)').fill(llm.baseURL)
    await model.getByLabel('Model').fill('gpt-4o-mini')
    await model.getByLabel('API key').fill(KEY)
    await page.getByRole('button', { name: 'Run threat model' }).click()
    await expect(page.getByTestId('run-state')).toHaveText('Finished', { timeout: 60_000 })
    const statuses = await page.getByTestId('task-result').evaluateAll((els) => els.map((e) => e.getAttribute('data-status')))
    expect(statuses).toEqual(['success', 'success', 'error', 'error'])

    expectNoSecret('IndexedDB', await dumpIndexedDb(page))
    expectNoSecret('localStorage', await page.evaluate(() => JSON.stringify({ ...localStorage })))
    expectNoSecret('the address', page.url())
    expect(await dumpIndexedDb(page)).toContain('[redacted]')
    expect(await dumpIndexedDb(page)).toContain('Please say echo. [redacted]')

    // 3. The results as a zip, from the Results tab's list of this browser's runs.
    await openBrowserRuns(page)
    const [zip] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download all (.zip)' }).click()])
    const entries = unzipSync(new Uint8Array(readFileSync((await zip.path())!)))
    expect(Object.keys(entries).length).toBeGreaterThan(10)
    for (const [name, bytes] of Object.entries(entries)) expectNoSecret(`zip entry ${name}`, strFromU8(bytes))

    // 4. A finding exported from the viewer (the echo run).
    await openExperimentRow(page.getByTestId('experiment-row').first())
    await page.getByRole('link', { name: 'goal-echo', exact: true }).click()
    await page.getByRole('link', { name: 'Run 1', exact: true }).click()
    await page.getByRole('button', { name: 'Export finding…' }).click()
    const exportDialog = page.getByRole('dialog', { name: 'Export finding' })
    const [finding] = await Promise.all([
      page.waitForEvent('download'),
      exportDialog.getByRole('button', { name: 'Download HTML' }).click(),
    ])
    const html = readFileSync((await finding.path())!, 'utf8')
    expect(html).toContain('goal-echo')
    expectNoSecret('the exported finding', html)

    // 5. A permalink of the threat model.
    await page.keyboard.press('Escape')
    await expect(exportDialog).toHaveCount(0)
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Design', exact: true }).click()
    await page.getByRole('tab', { name: 'Threat models' }).click()
    await page.getByRole('button', { name: 'Copy link to this threat model' }).click()
    const link = await page.locator('#permalink').inputValue()
    expect(link).toContain('#share=')
    expectNoSecret('the permalink', link)

    // 6. Everything the page logged, after all of it.
    expectNoSecret('the browser console', consoleLines.join('\n'))
    expectNoSecret('IndexedDB at the end', await dumpIndexedDb(page))
  } finally {
    rmSync(dir, { recursive: true, force: true })
    await Promise.all([target.close(), llm.close()])
  }
})
