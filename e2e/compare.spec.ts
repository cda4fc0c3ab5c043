/**
 * The viewer compares two results (issue 34): the demo assistant served twice
 * by the CLI, as it is and as a regressed build (`--weaken-defence
 * delimiters`), the same sweep and frontier search against each give BASE and
 * HEAD. Opened in the Results tab as two folders, the comparison paints and
 * lists exactly the regressions `redscope compare --json` reports for the same
 * two trees, links into both, survives a reload, says the frontier's new
 * minimal winners, and refuses bad input naming the side, keeping both open.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { NodeFsStorage } from '../src/adapters/storage/nodeFsStorage'
import { countsText, paintChanges, type Comparison } from '../src/core/compare'
import { writeTree } from '../src/core/compare/testTrees'
import type { Forest } from '../src/core/tags'
import { CliProcesses } from '../src/testing/cliProcesses'
import { startView } from './support/viewServer'

const CLAIM = 'public/claims/assistant-exfiltration.json'
const ATTACKER = ['--claim', CLAIM, '--template', 'naive', '--max-runs', '1']
const procs = new CliProcesses()
// Made in beforeAll: Playwright also loads a spec in its main process to list the tests, where no afterAll runs.
let dir = ''
const at = (name: string) => join(dir, name)

async function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const p = procs.start(args)
  const code = await p.exited
  return { code, stdout: p.stdout(), stderr: p.stderr() }
}

async function compareJson(base: string, head: string): Promise<Comparison> {
  const r = await cli(['compare', at(base), at(head), '--json'])
  expect(r.code, r.stderr).toBe(0)
  return JSON.parse(r.stdout) as Comparison
}

test.beforeAll(async () => {
  test.setTimeout(240_000)
  dir = mkdtempSync(join(tmpdir(), 'redscope-compare-e2e-'))
  const served = procs.start(['serve-target', 'assistant', '--port', '0', '--concurrency', '16'])
  const weakened = procs.start(['serve-target', 'assistant', '--port', '0', '--concurrency', '16', '--weaken-defence', 'delimiters'])
  const [good, bad] = await Promise.all(
    [served, weakened].map(async (p) => (await p.waitFor(/serving assistant at (http:\/\/127\.0\.0\.1:\d+)/))[1]),
  )
  // Every threat model holding `tools` (18): some the weakened defence lets through, some not.
  const runs = await Promise.all([
    cli(['sweep', '--target', good, ...ATTACKER, '--containing', 'tools', '--parallel', '8', '--out', at('base')]),
    cli(['sweep', '--target', bad, ...ATTACKER, '--containing', 'tools', '--parallel', '8', '--out', at('head')]),
    cli(['frontier', '--target', good, ...ATTACKER, '--per-task', '--out', at('frontier-base')]),
    cli(['frontier', '--target', bad, ...ATTACKER, '--per-task', '--out', at('frontier-head')]),
    cli([
      'sweep',
      '--target',
      good,
      '--claim',
      'public/claims/assistant-file-share.json',
      '--template',
      'naive',
      '--max-runs',
      '1',
      '--indices',
      '1-2',
      '--out',
      at('other-claim'),
    ]),
  ])
  for (const r of runs) expect(r.code, r.stderr).toBe(0)
  await procs.stopAll()
  mkdirSync(at('notes'))
  writeFileSync(at('notes/readme.txt'), 'not results')
  // Hostile words in a tree's goal and threat model name: shown as text, never as HTML.
  const hostile = { goals: ['<img src=x onerror="window.__pwned=1">leak', 'send'], claim: 'hostile' }
  await writeTree(
    new NodeFsStorage(at('hostile-base')),
    { ...hostile, models: [{ scope: ['inbox'], name: '<b>mine</b>', outcomes: [false, false] }] },
    '',
    true,
  )
  await writeTree(
    new NodeFsStorage(at('hostile-head')),
    { ...hostile, models: [{ scope: ['inbox'], name: '<b>mine</b>', outcomes: [true, false] }] },
    '',
    true,
  )
})

test.afterAll(async () => {
  await procs.stopAll()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

/** Opens a folder as one side from the comparison page's chooser. */
async function pick(page: Page, which: 'base' | 'head', folder: string): Promise<void> {
  await page.getByTestId(`compare-choose-${which}`).getByTestId('folder-input').setInputFiles(at(folder))
  await expect(page.getByTestId(`compare-side-${which}`)).toContainText(`folder: ${folder}`)
}

test('two sweeps compared: the regressions painted and listed are those redscope compare --json reports, linked into both', async ({
  page,
}) => {
  test.setTimeout(60_000)
  const c = await compareJson('base', 'head')
  expect(c.counts.regressions).toBeGreaterThan(0)
  const forest = (JSON.parse(readFileSync(at('base/sweep.json'), 'utf8')) as { forest: Forest }).forest

  await page.goto('/results')
  await page.getByRole('link', { name: 'Compare two results…' }).click()
  await expect(page).toHaveURL(/\/results\/compare/)
  await pick(page, 'base', 'base')
  await pick(page, 'head', 'head')
  await expect(page).toHaveURL(/\/results\/compare\?base=folder%3Abase&head=folder%3Ahead$/)
  await expect(page.getByTestId('compare-summary')).toHaveText(countsText(c.counts))

  // The list: the threat models with a regression are exactly the CLI's, first, each with its regressed tasks.
  const regressed = c.models.filter((m) => m.tasks.some((t) => t.change === 'regression'))
  const items = page.getByTestId('compare-model')
  await expect(items).toHaveCount(c.models.filter((m) => m.presence !== 'both' || m.tasks.some((t) => t.change !== 'unchanged')).length)
  for (const [i, m] of regressed.entries()) {
    const item = items.nth(i)
    await expect(item).toHaveAttribute('data-change', 'regression')
    await expect(item).toHaveAttribute('data-scope', [...m.scope].sort().join(','))
    await expect(item.locator('[data-testid=compare-task][data-change=regression] td:nth-child(2)')).toHaveText(
      m.tasks.filter((t) => t.change === 'regression').map((t) => t.key),
    )
    // Both ASRs with their intervals, in the CLI's words.
    await expect(item.getByTestId('compare-asr')).toContainText(`BASE: ${m.baseAsr!.words} → HEAD: ${m.headAsr!.words}; change `)
  }
  await expect(page.locator('[data-testid=compare-model][data-change=regression]')).toHaveCount(regressed.length)

  // The forest: every tag painted as the core paints the CLI's comparison, and the legend names each colour in words.
  const paint = paintChanges(forest, c.models)
  const figure = page.getByRole('figure', { name: 'What changed on the forest' })
  await expect(figure.getByRole('list', { name: 'What the colours mean' })).toContainText('red: a threat model granting it regressed')
  for (const [tag, p] of paint) {
    const g = page.locator(`[data-testid=compare-tag][data-tag="${tag}"]`)
    await expect(g).toHaveAttribute('data-change', p.change)
    await expect(g).toHaveAttribute('data-regressed', String(p.regressed))
  }
  expect([...paint.values()].some((p) => p.change === 'regression')).toBe(true)
  await expect(page.locator('[data-testid=compare-tag][data-tag=tools]')).toHaveAttribute('data-regressed', String(regressed.length))

  // A regressed task's HEAD cell opens that task in HEAD; BASE's experiment link opens it in BASE.
  const first = items.first()
  await first.locator('[data-testid=compare-task][data-change=regression] td:nth-child(4) a').first().click()
  await expect(page).toHaveURL(new RegExp(`/results/${regressed[0].headDir}/[^/?]+\\?src=folder%3Ahead$`))
  await page.goBack()
  await items.first().getByRole('link', { name: 'BASE experiment' }).click()
  await expect(page).toHaveURL(new RegExp(`/results/${regressed[0].baseDir}\\?src=folder%3Abase$`))

  // The address survives a reload: the page asks for both folders again, then shows the same comparison.
  await page.goBack()
  await page.reload()
  await expect(page.getByTestId('compare-choose-base')).toContainText('This link points into the folder "base" as BASE.')
  await pick(page, 'base', 'base')
  await pick(page, 'head', 'head')
  await expect(page.getByTestId('compare-summary')).toHaveText(countsText(c.counts))
})

test('the folder redscope view serves is BASE from its own link and reopens by itself after a reload; a folder is HEAD', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const c = await compareJson('base', 'head')
  const view = await startView([at('base'), '--port', '0'])
  try {
    await page.goto(`${view.origin}/results`)
    await expect(page).toHaveURL(/\?src=served%3Abase$/)
    await page.getByRole('link', { name: 'Compare two results…' }).click()
    await expect(page.getByTestId('compare-side-base')).toContainText('served: base')
    // The served folder is offered for HEAD too, as the other side.
    await expect(page.getByRole('combobox', { name: 'HEAD from the open results' })).toContainText('served: base (the other side)')
    await pick(page, 'head', 'head')
    await expect(page.getByTestId('compare-summary')).toHaveText(countsText(c.counts))
    await page.reload()
    await expect(page.getByTestId('compare-side-base')).toContainText('served: base')
    await expect(page.getByTestId('compare-choose-head')).toContainText('This link points into the folder "head" as HEAD.')
    await pick(page, 'head', 'head')
    await expect(page.getByTestId('compare-summary')).toHaveText(countsText(c.counts))
  } finally {
    await view.stop()
  }
})

test("two frontier searches compared: the minimal winning threat models new in HEAD are the CLI's", async ({ page }) => {
  const c = await compareJson('frontier-base', 'frontier-head')
  const fresh = c.frontier!.flatMap((f) =>
    f.newInHead.map(
      (w) => `${f.question === 'claim' ? 'the claim' : `task ${f.question}`}: new in HEAD (a weaker attacker may now win): ${w.words}`,
    ),
  )
  expect(fresh.length).toBeGreaterThan(0)
  await page.goto('/results/compare')
  await pick(page, 'base', 'frontier-base')
  await pick(page, 'head', 'frontier-head')
  await expect(page.getByTestId('compare-summary')).toHaveText(countsText(c.counts))
  await expect(page.getByTestId('frontier-new')).toHaveText(fresh)
  await expect(page.getByTestId('frontier-gone')).toHaveCount(c.frontier!.reduce((n, f) => n + f.goneFromHead.length, 0))
})

test('bad input names the side and why, keeps both open, and hostile words stay text', async ({ page }) => {
  await page.goto('/results/compare')
  await pick(page, 'base', 'base')
  await pick(page, 'head', 'notes')
  const error = page.getByTestId('compare-error')
  await expect(error).toContainText('HEAD cannot be compared')
  await expect(error).toContainText('HEAD: notes: not a results tree (no experiments.json')
  // Another HEAD, of another claim: the pair is refused, naming both.
  await page.getByTestId('compare-side-head').getByRole('button', { name: 'Choose another HEAD' }).click()
  await pick(page, 'head', 'other-claim')
  await expect(error).toContainText('BASE and HEAD cannot be compared')
  await expect(error).toContainText('other-claim: measures claim assistant-file-share, base measures claim assistant-exfiltration')
  // Nothing lost: the folders opened are still there to choose from.
  await page.getByTestId('compare-side-head').getByRole('button', { name: 'Choose another HEAD' }).click()
  await expect(page.getByRole('combobox', { name: 'HEAD from the open results' }).locator('option')).toHaveText([
    'choose…',
    'folder: base (the other side)',
    'folder: notes',
    'folder: other-claim',
  ])

  await page.goto('/results/compare')
  await pick(page, 'base', 'hostile-base')
  await pick(page, 'head', 'hostile-head')
  const item = page.getByTestId('compare-model')
  await expect(item).toHaveAttribute('data-change', 'regression')
  await expect(item).toContainText('<b>mine</b> (template-00000000)')
  await expect(item.getByTestId('compare-task')).toContainText('<img src=x onerror="window.__pwned=1">leak')
  await expect(page.locator('.compare img, .compare b')).toHaveCount(0)
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined()
})
