/**
 * "Find the weakest winning attacker" on a noisy target: the stochastic
 * refund agent served by `redscope serve-target stochastic` in its own
 * process (stopped after the file), which obeys an injection by chance with
 * odds known per surface. With "Noisy target" ticked, each evaluated threat
 * model runs until a confidence sequence decides it against the threshold or
 * its repeats run out; the panel shows each decision with its interval and
 * the undecided threat models, and its answer is the CLI's: the same seed on
 * a fresh server makes the same draws for every threat model (odds.ts), and a
 * decision falls where the runs first decide, however they were batched.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { openDesigner, openMenu } from './designerHelpers'
import { connectTargetUrl, onlyTemplates, pickClaim, setField } from './runConsole/helpers'
import { runCli } from '../src/testing/cliProcesses'

test.use({ viewport: { width: 1440, height: 1000 } })

const SEED = '1'
const TEST = ['--confidence', '0.9', '--max-repeats', '10', '--threshold', '0.5']

/** `redscope serve-target stochastic` on a free port; its URL and the process (to stop). */
async function serveStochastic(): Promise<{ url: string; proc: ChildProcess; exited: Promise<unknown> }> {
  const proc = spawn(
    process.execPath,
    ['bin/redscope.mjs', 'serve-target', 'stochastic', '--port', '0', '--concurrency', '8', '--seed', SEED, '--think-ms', '0'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const exited = new Promise((resolve) => proc.on('close', resolve))
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    proc.stdout!.on('data', (c: Buffer) => {
      out += c.toString()
      const m = /serving stochastic at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
      if (m) resolve(m[1])
    })
    proc.on('close', () => reject(new Error(`serve-target ended: ${out}`)))
  })
  return { url, proc, exited }
}

let served: Awaited<ReturnType<typeof serveStochastic>> | null = null
test.beforeAll(async () => {
  served = await serveStochastic()
})
test.afterAll(async () => {
  served?.proc.kill()
  await served?.exited
})

type Point = { words: string; tally?: { runs: number; wins: number; decision: string } }

/** The CLI's answer for the same attacker and test, against a fresh server with the same seed (stopped before this returns). */
async function cliAnswer(): Promise<{
  wins: Point[]
  undecided: Point[]
  evaluations: Array<{ index: string; runs: number; decision: string }>
}> {
  const dir = mkdtempSync(join(tmpdir(), 'redscope-frontier-noisy-browser-'))
  const fresh = await serveStochastic()
  try {
    const r = await runCli([
      'frontier',
      '--target',
      fresh.url,
      '--claim',
      'public/claims/stochastic-refund.json',
      '--template',
      'naive',
      '--max-runs',
      '1',
      ...TEST,
      '--out',
      join(dir, 'out'),
    ])
    expect(r.code).toBe(1) // some threat models stay undecided: a finding, exit 1
    const f = JSON.parse(readFileSync(join(dir, 'out', 'frontier.json'), 'utf8')) as {
      claim: { minimal_wins: Point[]; undecided_evaluated: Point[] }
      evaluations: Array<{ index: string; claim: { runs: number; decision: string } }>
    }
    return {
      wins: f.claim.minimal_wins,
      undecided: f.claim.undecided_evaluated,
      evaluations: f.evaluations.map((e) => ({ index: e.index, runs: e.claim.runs, decision: e.claim.decision })),
    }
  } finally {
    fresh.proc.kill()
    await fresh.exited
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The stochastic agent's forest imported from its URL, the target and its claim chosen (naive template, one run a task), on the sweep page. */
async function openSweepOnStochastic(page: Page, url: string) {
  page.on('dialog', (d) => void d.accept())
  await openDesigner(page)
  const menu = await openMenu(page, 'Import')
  await menu.getByLabel('Target URL (GET /manifest)').fill(url)
  await menu.getByRole('button', { name: 'Import', exact: true }).click()
  await expect(
    page.getByRole('status').filter({ hasText: `Connected to redscope-stochastic at ${url} and took its forest of 12 tags` }),
  ).toContainText('into a new workspace')
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Run', exact: true }).click()
  await connectTargetUrl(page, url, 'redscope-stochastic')
  await pickClaim(page, 'stochastic-refund.json')
  await onlyTemplates(page, ['naive'])
  await setField(page, 'Max runs per task', '1')
  await page.getByRole('link', { name: 'Sweep threat models' }).click()
  await page.getByLabel('Threat models at once').fill('8')
}

test("on a noisy target: each threat model decided by a sequential test, its interval and the undecided shown, the CLI's answer", async ({
  page,
}) => {
  test.setTimeout(300_000)
  await openSweepOnStochastic(page, served!.url)
  const panel = page.getByRole('region', { name: 'Weakest winning attacker' })
  await panel.getByRole('checkbox', { name: /Noisy target/ }).check()
  await setField(page, 'Confidence', '1.5')
  await expect(panel.getByRole('alert')).toHaveText(/confidence 1.5: must be above 0 and below 1/)
  await expect(panel.getByRole('button', { name: 'Find the weakest winning attacker' })).toBeDisabled()
  await setField(page, 'Confidence', '0.9')
  await setField(page, 'Max repeats', '10')
  await setField(page, 'Threshold', '0.5')
  await expect(
    panel.getByText('until a 90.0% confidence sequence puts its success rate above or below 0.5, or 10 runs were made'),
  ).toBeVisible()

  await panel.getByRole('button', { name: 'Find the weakest winning attacker' }).click()
  const progress = page.getByTestId('frontier-progress')
  await expect(progress).toContainText(/Evaluated \d+ of 494 threat models, decided by inference \d+, undecided \d+, \d+ runs/)
  await expect(progress).toContainText('done.', { timeout: 240_000 })

  // Each minimal winner with what its runs say; the undecided with theirs (every one of its 10 runs made).
  const wins = page.getByTestId('frontier-win')
  await expect(wins.first()).toBeVisible()
  for (const w of await wins.all()) await expect(w).toContainText(/ · \d+ of \d+ runs?, rate in \[0\.\d\d, 1\.00\]/)
  const undecided = page.getByTestId('frontier-undecided')
  await expect(undecided.first()).toBeVisible()
  for (const u of await undecided.all())
    await expect(u).toContainText(/stays undecided · \d+ of 10 runs, rate in \[0\.\d\d, [01]\.\d\d\] · the first of its 10 runs/)
  await expect(page.getByTestId('frontier-guarantee')).toContainText(
    /^Each decision is wrong with probability at most 10\.0%; all \d+ decisions are right together with probability at least [\d.]+%/,
  )
  await page.getByText(/^Every evaluated threat model \(\d+\): decision and interval$/).click()
  const rows = page.getByTestId('frontier-evaluated')

  // The CLI, same seed, same test: the same winners, the same undecided, every evaluation with the same runs and decision.
  const cli = await cliAnswer()
  const wordsOf = async (items: typeof wins) =>
    (await items.allTextContents()).map((t) => /^#\d+ (.*?) (?:wins|stays undecided)/.exec(t)![1]).sort()
  expect(await wordsOf(wins)).toEqual(cli.wins.map((p) => p.words).sort())
  expect(await wordsOf(undecided)).toEqual(cli.undecided.map((p) => p.words).sort())
  const browserRows = (
    await rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')))
  ).map(([index, , decision, winsRuns]) => ({ index, runs: Number(winsRuns.split(' / ')[1]), decision }))
  expect(browserRows.sort((a, b) => a.index.localeCompare(b.index))).toEqual(
    [...cli.evaluations].sort((a, b) => a.index.localeCompare(b.index)),
  )

  // Repeats are experiments of their own in this browser's results: the first run's link opens the viewer on it.
  await undecided.first().getByRole('link', { name: 'the first of its 10 runs' }).click()
  await expect(page).toHaveURL(
    /\/results\/template-[0-9a-f]{8}__redscope-stochastic__stochastic-refund__no-llm-[0-9a-f]{8}\?src=idb%3Aredscope-results/,
  )
})
