/**
 * The static bundle (`redscope bundle`, "Download as a site") in Chromium:
 * a tree the real CLI wrote from a hostile target, hostile LLM replies and
 * hostile goals, bundled and opened from file:// and from a static host
 * (real content types, nosniff): every page lists, opens and steps as in the
 * app, under the site's CSP without one violation, every payload inert, deep
 * links land on their step, the secret in the tree is masked. Then a sweep's
 * painting from its bundle, and the Results tab's "Download as a site".
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { expect, test, type Page } from '@playwright/test'
import { unzipSync } from 'fflate'
import { HOSTILE_STRINGS, HOSTILE_TEXT } from '../src/testing/hostileContent'
import { startScriptedLlm } from '../src/testing/scriptedLlm'
import { startScriptedTarget } from '../src/testing/scriptedTarget'
import { CliProcesses, runCli } from '../src/testing/cliProcesses'
import { expectInert, watch } from './support/inert'
import { EXP, FIXTURE, putTreeInBrowser, TASK } from './support/resultsTree'
import { serveFolder } from './support/staticServer'

const SECRET = 'sk-live-ABCDEFGHIJKLMNOPQRSTUVWX'
const GOALS = [HOSTILE_STRINGS[0], HOSTILE_STRINGS[9], HOSTILE_STRINGS[17]]
const procs = new CliProcesses()
let dir = ''

test.beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'redscope-bundle-e2e-'))
})

test.afterAll(async () => {
  await procs.stopAll()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

/** Every file under a folder, as text. */
function textsUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
}

/** Collects what the site's policy refused: the viewer itself must cause none. */
function cspViolations(page: Page): string[] {
  const seen: string[] = []
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) seen.push(m.text())
  })
  page.on('pageerror', (e) => seen.push(`page error: ${e.message}`))
  return seen
}

async function hostileTree(): Promise<string> {
  const target = await startScriptedTarget({ hostileManifest: true })
  // The attacker's replies are the corpus and a live-looking key: the target echoes them into the trajectory.
  const llm = await startScriptedLlm(() => ({ kind: 'reply', content: `${HOSTILE_TEXT}\n${SECRET}` }))
  writeFileSync(
    join(dir, 'claim.json'),
    JSON.stringify({
      name: HOSTILE_STRINGS[1],
      tasks: GOALS.map((goal) => ({
        goal,
        config: { mode: 'corpus' },
        evaluator: { type: 'trajectory_match', observable: 'reply', pattern: '^echo' },
      })),
    }),
  )
  const out = join(dir, 'results')
  try {
    const r = await runCli([
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
      '2',
      '--attacker-label',
      HOSTILE_STRINGS[3],
      '--out',
      out,
    ])
    expect(r.code, r.stderr).toBe(0)
  } finally {
    await Promise.all([target.close(), llm.close()])
  }
  expect(textsUnder(out).some((t) => t.includes(SECRET))).toBe(true)
  return out
}

/** Lists, opens an experiment, a task, each run's steps (the first task only unless `all`), and the presenter: each page inert. */
async function walkThrough(page: Page, home: string, all: boolean) {
  const w = watch(page, page.context())
  const violations = cspViolations(page)
  await page.goto(home)
  await expect(page.getByTestId('site-title')).toHaveText('hostile results')
  await expect(page.getByTestId('site-redaction')).toContainText('Secrets masked by the 6 built-in rules')
  const experiment = page.getByRole('region', { name: 'Experiments' }).getByRole('link').first()
  await expect(experiment).toBeVisible()
  await expectInert(page, w, page.url())
  await experiment.click()
  const rows = page.getByRole('list', { name: 'Task rows' })
  await expect(rows.getByRole('link', { name: GOALS[0] })).toBeVisible()
  await expectInert(page, w, page.url())
  for (let t = 0; t < (all ? GOALS.length : 1); t++) {
    await rows.getByRole('link').nth(t).click()
    await page.getByRole('link', { name: 'Run 1', exact: true }).click()
    const grid = page.getByRole('grid', { name: /Trajectory/ })
    await expect(grid).toBeVisible()
    const count = await page.locator('[role="row"][data-event]').count()
    expect(count).toBeGreaterThan(2)
    for (let i = 0; i < Math.min(count, 30); i++) await page.locator(`[role="row"][data-event="${i}"]`).click()
    if (t === 0) {
      await expect(grid).toContainText(HOSTILE_STRINGS[0])
      // The injection (step 3) holds the attacker's reply whole: the key in it is masked.
      await page.locator('[role="row"][data-event="2"]').click()
      const panel = page.getByRole('complementary', { name: 'Selected step' })
      await panel.getByRole('button', { name: 'Show all' }).click()
      await expect(panel).toContainText('[redacted:api-key]')
    }
    await expectInert(page, w, page.url())
    await page.goBack()
    await page.goBack()
    await expect(rows).toBeVisible()
  }
  await rows.getByRole('link').first().click()
  await page.getByRole('link', { name: 'Run 2', exact: true }).click()
  await page.getByRole('button', { name: /Presenter/ }).click()
  await expect(page).toHaveURL(/present=1/)
  await page.keyboard.press('ArrowRight')
  await expectInert(page, w, page.url())
  await expect(page.getByText(SECRET)).toHaveCount(0)
  expect(violations).toEqual([])
}

test('a bundle of a hostile tree opens from file:// and from a static host: every page inert, the secret masked, deep links land', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const results = await hostileTree()
  const site = join(dir, 'site')
  const r = await runCli(['bundle', results, '--out', site, '--title', 'hostile results'])
  expect(r.code, r.stderr).toBe(0)
  expect(r.stdout).toMatch(/^wrote .*index\.html: 1 experiment, \d+ results files, .* in \d+ scripts\)$/m)
  expect(r.stdout).toMatch(/^secrets masked by the built-in rules: \d+ \(.*api-key \d+/m)
  expect(readdirSync(site).sort()).toEqual(['data', 'index.html', 'viewer.css', 'viewer.js'])
  // No name from the results became a file name; the secret is nowhere in the bundle.
  expect(readdirSync(join(site, 'data')).every((f) => /^(index|\d+)\.js$/.test(f))).toBe(true)
  expect(textsUnder(site).some((t) => t.includes(SECRET))).toBe(false)

  const fileHome = pathToFileURL(join(site, 'index.html')).href
  await walkThrough(page, fileHome, true)

  // A deep link to a step, opened cold: the same step as in the app.
  const [experiment] = readdirSync(results).filter((f) => f !== 'experiments.json')
  const task = readdirSync(join(results, experiment, 'tasks'))[0]
  const deep = `#/${encodeURIComponent(experiment)}/${encodeURIComponent(task)}/1/3`
  await page.goto('about:blank')
  await page.goto(`${fileHome}${deep}`)
  await expect(page.locator('[role="row"][aria-selected="true"]')).toHaveAttribute('data-event', '2')
  await expect(page.getByRole('complementary', { name: 'Selected step' })).toContainText('Step 3')

  const server = await serveFolder(site, { cors: false, site: true })
  try {
    await walkThrough(page, server.url, false)
    await page.goto(`${server.url}index.html${deep}`)
    await expect(page.locator('[role="row"][aria-selected="true"]')).toHaveAttribute('data-event', '2')
  } finally {
    await server.close()
  }

  // --no-redact keeps the results as written, and says so on every page.
  const plain = join(dir, 'site-plain')
  const p = await runCli(['bundle', results, '--out', plain, '--no-redact'])
  expect(p.code, p.stderr).toBe(0)
  expect(p.stdout).toContain('not redacted (--no-redact)')
  expect(textsUnder(plain).some((t) => t.includes(SECRET))).toBe(true)
  await page.goto(pathToFileURL(join(plain, 'index.html')).href)
  await expect(page.getByTestId('site-redaction')).toHaveText(/^Not redacted: made with --no-redact/)
})

test("a sweep's bundle paints the sweep from file://, and its rows open their experiments", async ({ page }) => {
  test.setTimeout(120_000)
  const target = procs.start(['serve-target', 'assistant', '--port', '0'])
  const url = (await target.waitFor(/serving assistant at (http:\/\/127\.0\.0\.1:\d+)/))[1]
  const results = join(dir, 'sweep')
  const sweep = procs.start([
    'sweep',
    '--target',
    url,
    '--claim',
    'public/claims/assistant-exfiltration.json',
    '--containing',
    'inbox,user',
    '--template',
    'naive',
    '--max-runs',
    '1',
    '--out',
    results,
  ])
  expect(await sweep.exited, sweep.stderr()).toBe(0)
  await procs.stopAll()
  const site = join(dir, 'sweep-site')
  const r = await runCli(['bundle', results, '--out', site])
  expect(r.code, r.stderr).toBe(0)

  const violations = cspViolations(page)
  await page.goto(`${pathToFileURL(join(site, 'index.html')).href}#/sweep`)
  await expect(page.getByTestId('sweep-summary')).toHaveText(/^72 of 72 threat models complete · 72 broke the claim/)
  await expect(page.getByRole('img', { name: 'Forest painted with what each tag contributes' })).toBeVisible()
  await expect(page.getByRole('table', { name: 'Sweep results' })).toHaveAttribute('aria-rowcount', '73')
  const first = page.getByTestId('sweep-row').first()
  const experiment = await first.getAttribute('data-dir')
  await first.getByRole('link', { name: 'open' }).click()
  await expect(page).toHaveURL(new RegExp(`index\\.html#/${experiment}\\?src=`))
  await expect(page.getByRole('list', { name: 'Task rows' }).getByRole('link')).toHaveCount(4)
  // The claim's framework references travel into the bundle: its experiment pages summarise them (docs/compliance.md).
  await expect(page.getByTestId('compliance-panel').locator('tr[data-reference="LLM02"]')).toContainText('breached under')
  expect(violations).toEqual([])
})

test('"Download as a site" in the Results tab saves a zip that opens from file:// on the same step', async ({ page }) => {
  await page.goto('/results')
  await putTreeInBrowser(page, FIXTURE)
  await page.goto('/results')
  await expect(page.getByRole('region', { name: 'Experiments' }).getByRole('link', { name: EXP })).toBeVisible()
  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Download as a site (.zip)' }).click()
  const file = await download
  expect(file.suggestedFilename()).toMatch(/-site\.zip$/)
  await expect(page.getByTestId('site-status')).toContainText('Site saved: 1 experiment, 0 secrets masked by the built-in rules')
  const zipped = unzipSync(new Uint8Array(readFileSync(await file.path())))
  const root = join(dir, 'downloaded')
  for (const [name, bytes] of Object.entries(zipped)) {
    mkdirSync(dirname(join(root, name)), { recursive: true })
    writeFileSync(join(root, name), bytes)
  }
  const [top] = readdirSync(root)
  expect(readdirSync(join(root, top)).sort()).toEqual(['data', 'index.html', 'viewer.css', 'viewer.js'])
  const violations = cspViolations(page)
  await page.goto(`${pathToFileURL(join(root, top, 'index.html')).href}#/${EXP}/${TASK}/2/4`)
  await expect(page.locator('[role="row"][aria-selected="true"]')).toHaveAttribute('data-event', '3')
  await expect(page.getByTestId('site-title')).toHaveText("this browser's runs (redscope-results)")
  expect(violations).toEqual([])
})
