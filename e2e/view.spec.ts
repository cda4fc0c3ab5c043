/**
 * `redscope view` and `npm start` as users start them: the compiled bin (and
 * scripts/start.mjs) in child processes, on temp folders, opened in Chromium,
 * stopped at the end of each test.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { runCli } from '../src/testing/cliProcesses'
import { EXP, FIXTURE, putTreeInBrowser } from './support/resultsTree'
import { SUPERRED_STEPS } from './support/superredSteps'
import { startServer, startView, type RunningView } from './support/viewServer'

test.describe.configure({ timeout: 120_000 })

let dir: string
let servers: RunningView[] = []
test.beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'redscope-view-e2e-'))
})
test.afterEach(async () => {
  await Promise.all(servers.map((s) => s.stop()))
  servers = []
  rmSync(dir, { recursive: true, force: true })
})

async function view(folder: string, env: Record<string, string> = {}) {
  const s = await startView([folder, '--port', '0'], env)
  servers.push(s)
  return s
}

const LIVE_MS = 2_000

test('a superred schema-4 tree written step by step shows live: the experiment in progress, then its task, then complete', async ({
  page,
}) => {
  const root = join(dir, 'superred-results')
  mkdirSync(root)
  const server = await view(root)
  const response = await page.goto(server.url)
  expect(response!.headers()['content-security-policy']).toContain("script-src 'self'")
  await expect(page.getByTestId('no-experiments')).toBeVisible()

  SUPERRED_STEPS.start(root)
  // Named by its granted tags, not by its folder; the folder is still there, secondary.
  const row = page.getByTestId('experiment-row')
  await expect(row).toHaveCount(1, { timeout: LIVE_MS })
  await expect(row.getByRole('link').first()).toHaveText('user, system (read only)')
  await expect(row).toContainText('stub-agent')
  await expect(row).toContainText('in progress')
  await row.getByRole('link').first().click()
  await expect(page.getByTestId('in-progress')).toContainText('still being written')
  const tasks = page.getByRole('list', { name: 'Task rows' })
  await expect(tasks.getByRole('link')).toHaveCount(0)

  SUPERRED_STEPS.task(root)
  await expect(tasks.getByRole('link', { name: 'leak the secret' })).toBeVisible({ timeout: LIVE_MS })

  SUPERRED_STEPS.finish(root)
  await expect(page.getByTestId('in-progress')).toHaveCount(0, { timeout: LIVE_MS })
  // The schema-4 tree replays like any other.
  await tasks.getByRole('link', { name: 'leak the secret' }).click()
  await page.getByRole('link', { name: 'Run 1', exact: true }).click()
  await expect(page.getByRole('grid', { name: /Trajectory/ })).toBeVisible()
  // The address names the served folder: a reload lands on the same run with nothing to pick.
  await page.reload()
  await expect(page.getByRole('grid', { name: /Trajectory/ })).toBeVisible()
})

test('redscope run writing into the served folder: its experiment appears while it runs, named by target and claim', async ({ page }) => {
  const root = join(dir, 'runs')
  mkdirSync(root)
  // A think time keeps the run going long enough to be watched, as in a demo.
  const server = await view(root, { REDSCOPE_THINK_MS: '150' })
  await page.goto(server.url)
  await expect(page.getByTestId('no-experiments')).toBeVisible()
  const run = runCli([
    'run',
    '--target',
    `${server.origin}/targets/assistant`,
    '--claim',
    'public/claims/assistant-exfiltration.json',
    '--scope',
    'inbox',
    '--max-runs',
    '1',
    '--out',
    root,
  ])
  const row = page.getByTestId('experiment-row')
  await expect(row).toHaveCount(1, { timeout: 15_000 })
  await expect(row).toContainText('redscope-assistant')
  await expect(row).toContainText('assistant-exfiltration')
  await expect(row.getByRole('link').first()).toHaveText('inbox')
  const done = await run
  expect(done.stderr).toBe('')
  expect(done.code).toBe(0)
  await expect(row).toContainText(/of 4 tasks, 95% CI|not broken in 4 tasks by/, { timeout: LIVE_MS + 1_000 })
  await row.getByRole('link').first().click()
  const tasks = page.getByRole('list', { name: 'Task rows' })
  await expect(tasks.getByRole('link')).toHaveCount(4)
  // The four tasks share a goal: each says which defence it faced, on the experiment, task and run pages.
  await expect(tasks.getByTestId('task-config')).toHaveText([
    /^defence=none,/,
    /^defence=delimiters,/,
    /^defence=keyword_filter,/,
    /^defence=strict_filter,/,
  ])
  await tasks.getByRole('link').nth(3).click()
  await expect(page.getByTestId('task-config')).toContainText('defence=strict_filter')
  await page.getByRole('link', { name: 'Run 1', exact: true }).click()
  await expect(page.getByRole('grid', { name: /Trajectory/ })).toBeVisible()
  await expect(page.getByTestId('task-config')).toContainText('defence=strict_filter')
})

test('nothing outside the folder is served: traversal, dot-files and symlinks out are refused', async ({ request }) => {
  const root = join(dir, 'results')
  mkdirSync(root)
  SUPERRED_STEPS.start(root)
  SUPERRED_STEPS.task(root)
  writeFileSync(join(dir, 'outside.txt'), 'NOT-FOR-YOU')
  writeFileSync(join(root, '.env'), 'OPENAI_API_KEY=sk-NOT-FOR-YOU')
  symlinkSync(join(dir, 'outside.txt'), join(root, 'escape.json'))
  symlinkSync(dir, join(root, 'parent'))
  const server = await view(root)
  // Sent on the wire as written: a URL-normalising client would resolve the dot segments before the server saw them.
  const get = (path: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const u = new URL(server.origin)
      const req = httpRequest({ host: u.hostname, port: u.port, path }, (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (c: string) => (body += c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      })
      req.on('error', reject)
      req.end()
    })
  expect((await get(`/api/results/files/${EXP}/manifest.json`)).status).toBe(200)
  for (const path of [
    '/api/results/files/../outside.txt',
    '/api/results/files/%2e%2e/outside.txt',
    '/api/results/files/..%2foutside.txt',
    '/api/results/files/escape.json',
    '/api/results/files/parent/outside.txt',
    '/api/results/list/parent',
    '/../../package.json',
    '/assets/%2e%2e/%2e%2e/package.json',
  ]) {
    const r = await get(path)
    expect(r.status, path).toBe(403)
    expect(r.body).not.toContain('NOT-FOR-YOU')
  }
  const hidden = await get('/api/results/files/.env')
  expect(hidden.status).toBe(404)
  expect(hidden.body).not.toContain('sk-NOT-FOR-YOU')
  const listing = await (await request.get(`${server.origin}/api/results/list/`)).json()
  expect(listing.entries.map((e: { name: string }) => e.name)).toEqual([EXP])
})

test('npm start serves the production build with the CSP header and the demo targets, and the app runs under it', async ({
  page,
  request,
}) => {
  const server = await startServer(['scripts/start.mjs', '--port', '0'])
  servers.push(server)
  expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
  const violations: string[] = []
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text())
  })
  const response = await page.goto(server.url)
  const csp = response!.headers()['content-security-policy']
  expect(csp).toContain("script-src 'self'")
  expect(csp).toContain("frame-ancestors 'none'")
  await expect(page.getByRole('group', { name: 'system', exact: true })).toBeVisible()
  expect(violations).toEqual([])
  const manifest = await request.get(`${server.origin}/targets/chatbot/manifest`)
  expect((await manifest.json()).name).toBe('redscope-chatbot')
  // No results folder unless given one: the API says none, and the Results tab asks without a 404 in the console.
  expect(await (await request.get(`${server.origin}/api/results`)).json()).toEqual({ label: null })
  const failed: string[] = []
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`)
  })
  await page.goto(`${server.url}results`)
  await expect(page.getByRole('region', { name: 'Open results' })).toBeVisible()
  expect(failed).toEqual([])
})

test("without a served folder, the Results tab lands on this browser's runs when it has any", async ({ page }) => {
  await page.goto('/results')
  // No runs yet: the ways to open results, and no list.
  await expect(page.getByRole('region', { name: 'Open results' })).toBeVisible()
  await expect(page).not.toHaveURL(/src=/)
  // What the run console writes: one IndexedDB record per file of the tree.
  await putTreeInBrowser(page, FIXTURE)
  await page.goto('/results')
  await expect(page).toHaveURL(/src=idb%3Aredscope-results/)
  await expect(page.getByTestId('experiment-row')).toHaveCount(1)
  await expect(page.getByTestId('experiment-row')).toContainText('2026')
})
