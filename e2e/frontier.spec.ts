/**
 * "Find the weakest winning attacker" beside the sweep, against the demo
 * assistant served by the app (/targets/assistant/, deterministic defences):
 * live progress, the frontier in words with links to the runs that decided
 * it, and the frontier painted on the forest. The answer is the one
 * `redscope frontier` gives for the same attacker (src/cli/frontier.e2e.test.ts
 * checks that against a full sweep).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { openSweepOnAssistant, serveAssistant } from './frontierHelpers'
import { CliProcesses, runCli } from '../src/testing/cliProcesses'

test.use({ viewport: { width: 1440, height: 1000 } })

test('the weakest attackers that exfiltrate from the demo assistant, found with a few runs of 305, each linked to its run', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await openSweepOnAssistant(page)

  await page.getByRole('button', { name: 'Find the weakest winning attacker' }).click()
  const progress = page.getByTestId('frontier-progress')
  // Live: it counts while it runs, then says it is done.
  await expect(progress).toContainText(/Evaluated \d+ of 305 threat models, decided by inference \d+, undecided \d+/)
  await expect(progress).toContainText('done.', { timeout: 90_000 })
  const text = (await progress.textContent())!
  const [, evaluated, inferred] = /Evaluated (\d+) of 305 threat models, decided by inference (\d+), undecided 0/.exec(text)!.map(Number)
  expect(evaluated + inferred).toBe(305)
  expect(evaluated).toBeLessThanOrEqual(30)

  const wins = page.getByTestId('frontier-win')
  await expect(wins).toHaveText([
    /^#8 an attacker who writes inbox and reads nothing else wins: 100% \(1 of 1 run, 95% CI 20–100%\) · the run that decided it show$/,
    /^#17 an attacker who writes user and reads nothing else wins: 100% \(1 of 1 run, 95% CI 20–100%\) · the run that decided it show$/,
    /^#68 an attacker who writes tool_catalogue and reads nothing else wins: 100% \(1 of 1 run, 95% CI 20–100%\) · the run that decided it show$/,
    /^#136 an attacker who writes system_prompt and reads nothing else wins: 100% \(1 of 1 run, 95% CI 20–100%\) · the run that decided it show$/,
  ])
  // Painted: a tag a minimal winner holds (through itself or an ancestor), and one none needs.
  await expect(page.locator('[data-testid=frontier-tag][data-tag=inbox]')).toHaveAttribute('data-wins', '1')
  await expect(page.locator('[data-testid=frontier-tag][data-tag=bank_account]')).toHaveAttribute('data-wins', '0')
  await expect(page.locator('[data-testid=frontier-tag][data-tag=tools]')).toHaveAttribute('data-wins', '0')

  await wins.first().getByRole('link', { name: 'the run that decided it' }).click()
  await expect(page).toHaveURL(
    /\/results\/template-[0-9a-f]{8}__redscope-assistant__assistant-exfiltration__no-llm-[0-9a-f]{8}\?src=idb%3Aredscope-results/,
  )
  await expect(page.getByRole('heading', { level: 2 })).toContainText(/template-[0-9a-f]{8} → redscope-assistant · assistant-exfiltration/)
})

type Point = { words: string; read_only: string[] }

/**
 * `redscope frontier --read-only` with the browser's attacker, against the demo assistant served by
 * `redscope serve-target` in its own process (stopped before this returns): the claim's frontier in words.
 */
async function cliReadOnlyFrontier(): Promise<{ wins: string[]; losses: Point[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'redscope-frontier-browser-'))
  const procs = new CliProcesses()
  try {
    const url = await serveAssistant(procs, '--concurrency', '8')
    const r = await runCli([
      'frontier',
      '--target',
      url,
      '--claim',
      'public/claims/assistant-exfiltration.json',
      '--template',
      'naive',
      '--max-runs',
      '1',
      '--read-only',
      '--out',
      join(dir, 'out'),
    ])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const f = JSON.parse(readFileSync(join(dir, 'out', 'frontier.json'), 'utf8')) as {
      claim: { minimal_wins: Point[]; maximal_losses: Point[] }
    }
    return { wins: f.claim.minimal_wins.map((p) => p.words), losses: f.claim.maximal_losses }
  } finally {
    await procs.stopAll()
    rmSync(dir, { recursive: true, force: true })
  }
}

// The same search over every threat model, per tag none / read only / read & write (GrantLattice), as
// `redscope frontier --read-only` runs it; the test asks the CLI for its answer and compares. On the demo assistant
// (docs/frontier.md, "Against brute force over the whole read-only space") that is the four scope-only minimal wins,
// reading nothing else, and one maximal loss that reads what it does not write.
test('with read-only grants: the weakest attackers of all 10,583 threat models, as the CLI finds them, a read-only grant shown and recorded in its run', async ({
  page,
}) => {
  test.setTimeout(150_000)
  await openSweepOnAssistant(page)

  const include = page.getByRole('checkbox', { name: 'Include read-only grants' })
  await expect(include).not.toBeChecked() // off by default, as the CLI's --read-only
  await include.check()
  await page.getByRole('button', { name: 'Find the weakest winning attacker' }).click()
  const progress = page.getByTestId('frontier-progress')
  await expect(progress).toContainText(
    /Evaluated \d+ of 10,583 threat models \(read-only grants included\), decided by inference [\d,]+, undecided [\d,]+/,
  )
  await expect(progress).toContainText('done.', { timeout: 120_000 })
  const text = (await progress.textContent())!
  const [, evaluated, inferred] =
    /Evaluated (\d+) of 10,583 threat models \(read-only grants included\), decided by inference ([\d,]+), undecided 0/
      .exec(text)!
      .map((s) => Number(s.replace(/,/g, '')))
  expect(evaluated + inferred).toBe(10_583)
  expect(evaluated).toBeLessThanOrEqual(60)

  // The same minimal wins as the CLI's, in the order this space's search found them (compared as a set).
  const cli = await cliReadOnlyFrontier()
  expect(cli.losses.map((p) => p.read_only.length > 0)).toContain(true)
  const wins = page.getByTestId('frontier-win')
  await expect(wins).toHaveCount(cli.wins.length)
  const said = (await wins.allTextContents()).map((t) => / (an attacker who .*) wins: /.exec(t.replace(/\s+/g, ' '))![1])
  expect(said.sort()).toEqual([...cli.wins].sort())
  expect((await wins.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim()).sort()).toEqual([
    '#136 an attacker who writes system_prompt and reads nothing else wins: 100% (1 of 1 run, 95% CI 20–100%) · the run that decided it show',
    '#17 an attacker who writes user and reads nothing else wins: 100% (1 of 1 run, 95% CI 20–100%) · the run that decided it show',
    '#68 an attacker who writes tool_catalogue and reads nothing else wins: 100% (1 of 1 run, 95% CI 20–100%) · the run that decided it show',
    '#8 an attacker who writes inbox and reads nothing else wins: 100% (1 of 1 run, 95% CI 20–100%) · the run that decided it show',
  ])
  await page.getByText(/The widest attackers that lose/).click()
  const losses = page.getByTestId('frontier-loss')
  await expect(losses).toHaveCount(cli.losses.length)
  expect((await losses.allTextContents()).map((t) => / (an attacker who .*) loses: /.exec(t.replace(/\s+/g, ' '))![1]).sort()).toEqual(
    cli.losses.map((p) => p.words).sort(),
  )
  await expect(losses).toHaveText([
    /^#\d+\/\d+ an attacker who writes bank_account, calendar, drive and model_identity and reads system, tools and user and nothing else loses: not broken in 1 run by template-[0-9a-f]{8} \(≤ 80% at 95%\) · the run that decided it show$/,
  ])
  await expect(losses.first()).toHaveAttribute('data-read-only', 'system tools user')

  // Painted: the loss shown on the forest, written tags red, read-only ones with the designer's dashed mark.
  await losses.first().getByRole('button', { name: 'Show on the forest' }).click()
  await expect(page.locator('[data-testid=frontier-tag][data-tag=calendar]')).toHaveAttribute('data-writes', '1')
  await expect(page.locator('[data-testid=frontier-tag][data-tag=tools]')).toHaveAttribute('data-reads', '1')
  await expect(page.locator('[data-testid=frontier-tag][data-tag=tools]')).toHaveAttribute('data-writes', '0')
  await expect(page.locator('[data-testid=frontier-tag][data-tag=inbox]')).toHaveAttribute('data-writes', '0')

  // The run that decided it ran with those read-only grants: its manifest records them as superred does.
  await losses.first().getByRole('link', { name: 'the run that decided it' }).click()
  await expect(page).toHaveURL(
    /\/results\/template-[0-9a-f]{8}__redscope-assistant__assistant-exfiltration__no-llm-[0-9a-f]{8}\?src=idb%3Aredscope-results/,
  )
  const header = page.locator('.exp-header')
  await expect(header).toContainText('read only')
  const [, scope, readOnly] = /Scope (.+?) · read only (.+?) ·/.exec((await header.textContent())!)!
  expect(scope.split(', ').sort()).toEqual(['bank_account', 'calendar', 'drive', 'model_identity'])
  expect(readOnly.split(', ').sort()).toEqual(['system', 'tools', 'user'])
})
