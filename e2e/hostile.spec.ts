/**
 * The hostile corpus (src/testing/hostileContent.ts) through every path where
 * content enters the app, each view visited in Chromium: imported forests
 * (FOREST.json, security_tags.py), a target's manifest fetched by URL,
 * permalinks, and a results tree made by the real CLI against a hostile
 * target with an LLM attacker whose replies are the corpus and a claim whose
 * goals are the corpus. No script runs, nothing navigates, nothing freezes.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { decodePermalink, encodePermalink } from '../src/lib/permalink'
import { forestToJson } from '../src/lib/forestJson'
import { forestToPython } from '../src/lib/pythonExport'
import { deeplyNestedJson, HOSTILE_STRINGS, HOSTILE_TEXT, hostileNames } from '../src/testing/hostileContent'
import { startScriptedLlm } from '../src/testing/scriptedLlm'
import { startScriptedTarget } from '../src/testing/scriptedTarget'
import { runCli } from '../src/testing/cliProcesses'
import { expectInert, watch } from './support/inert'
import { EXP, FIXTURE, TASK } from './support/resultsTree'

/** Every name and description a payload; prototype names first; nested three deep. */
function hostileForest() {
  const names = hostileNames()
  return {
    tags: names.map((name, i) => ({
      name,
      parent: i === 0 ? null : names[Math.floor((i - 1) / 3)],
      description: HOSTILE_STRINGS[i % HOSTILE_STRINGS.length],
    })),
  }
}

async function openDesigner(page: Page) {
  await page.goto('/')
  await expect(page.getByRole('toolbar', { name: 'Designer' })).toBeVisible()
}

/** A click that must still work: the Import menu opens. */
async function menuStillOpens(page: Page) {
  const summary = page.locator('summary', { hasText: 'Import' })
  await summary.click()
  await expect(page.locator('details[open]')).toHaveCount(1)
  await summary.click()
  await expect(page.locator('details[open]')).toHaveCount(0)
}

test('designer: a hostile FOREST.json, security_tags.py and target manifest are shown as text', async ({ page, context }) => {
  const w = watch(page, context)
  await openDesigner(page)
  const url = page.url()
  const forest = hostileForest()
  await page
    .getByLabel('FOREST.json file')
    .setInputFiles({ name: 'hostile.forest.json', mimeType: 'application/json', buffer: Buffer.from(forestToJson(forest)) })
  await expect(page.getByRole('status').filter({ hasText: `Imported ${forest.tags.length} tags` })).toBeVisible()
  await expect(page.getByRole('group', { name: '<script>window.__pwned=1</script>', exact: true })).toBeVisible()
  await expect(page.getByRole('group', { name: '__proto__', exact: true })).toBeVisible()
  // Open the inspector on a payload tag, then pick scope on it.
  await page.getByRole('group', { name: '<img src=x onerror="window.__pwned=1">', exact: true }).click()
  await expect(page.getByRole('region', { name: 'Tag <img src=x onerror="window.__pwned=1">' })).toBeVisible()
  await expectInert(page, w, url)
  await menuStillOpens(page)

  await page
    .getByLabel('superred security_tags.py')
    .setInputFiles({ name: 'security_tags.py', mimeType: 'text/x-python', buffer: Buffer.from(forestToPython(forest, HOSTILE_TEXT)) })
  await expect(page.getByRole('status').filter({ hasText: 'from security_tags.py' })).toBeVisible()
  await expect(page.getByRole('group', { name: '<svg onload="window.__pwned=1"></svg>', exact: true })).toBeVisible()
  await expectInert(page, w, url)

  // A target whose manifest (name, description, tags, surfaces) is the corpus, fetched by URL.
  const target = await startScriptedTarget({ hostileManifest: true })
  try {
    await page.locator('summary', { hasText: 'Import' }).click()
    await page.getByLabel('Target URL (GET /manifest)').fill(target.url)
    await page.getByRole('button', { name: 'Import', exact: true }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Connected to scripted <script>window.__pwned=1</script>' })).toBeVisible()
    await expect(page.getByRole('group', { name: ' JaVaScRiPt:window.__pwned=1', exact: true })).toBeAttached()
    await page.getByRole('radio', { name: 'Pick scope' }).click()
    await page.getByRole('button', { name: 'user: not granted. Change access' }).click()
    await expectInert(page, w, url)
    await menuStillOpens(page)
  } finally {
    await target.close()
  }
})

test('permalinks: a hostile shared threat model opens as data; a bomb and deep nesting are refused with a message', async ({
  page,
  context,
}) => {
  const w = watch(page, context)
  const forest = hostileForest()
  const link = encodePermalink({ name: HOSTILE_TEXT, forest, scope: [forest.tags[1].name], readOnly: [forest.tags[2].name] })
  expect(decodePermalink(link.slice('share='.length)).forest).toEqual(forest)
  await page.goto(`/#${link}`)
  await expect(page.getByRole('status').filter({ hasText: 'Opened the shared threat model' })).toBeVisible()
  await expect(page.getByRole('group', { name: forest.tags[1].name, exact: true })).toBeVisible()
  // The link is consumed: the address no longer holds it.
  const url = page.url()
  expect(url).not.toContain('share=')
  await expectInert(page, w, url)
  await menuStillOpens(page)

  const { deflateSync, strToU8 } = await import('fflate')
  const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url')
  const bomb = b64(deflateSync(new Uint8Array(64 * 2 ** 20), { level: 9 }))
  await page.goto(`/#share=${bomb}`)
  await expect(page.getByRole('alert').filter({ hasText: 'would unpack to more than 16 MB' })).toBeVisible()
  await expectInert(page, w, page.url())
  const deep = b64(deflateSync(strToU8(deeplyNestedJson(200_000)), { level: 9 }))
  await page.goto(`/#share=${deep}`)
  await expect(page.getByRole('alert').filter({ hasText: 'nested deeper than 1,000 levels' })).toBeVisible()
  await expectInert(page, w, page.url())
  await menuStillOpens(page)
})

// The CLI test's folder, removed after it also when it failed (its steps run on after the CLI is done).
let cliDir = ''
test.afterEach(() => {
  if (cliDir) rmSync(cliDir, { recursive: true, force: true })
  cliDir = ''
})

test('results viewer: a tree the CLI wrote from a hostile target, hostile LLM replies and hostile goals', async ({ page, context }) => {
  test.setTimeout(90_000)
  const target = await startScriptedTarget({ hostileManifest: true })
  const llm = await startScriptedLlm(() => ({ kind: 'reply', content: HOSTILE_TEXT }))
  const dir = (cliDir = mkdtempSync(join(tmpdir(), 'redscope-hostile-')))
  const goals = [HOSTILE_STRINGS[0], HOSTILE_STRINGS[9], HOSTILE_STRINGS[17]]
  writeFileSync(
    join(dir, 'claim.json'),
    JSON.stringify({
      name: HOSTILE_STRINGS[1],
      tasks: [
        ...goals.map((goal) => ({
          goal,
          config: { mode: 'corpus' },
          evaluator: { type: 'trajectory_match', observable: 'reply', pattern: '^echo' },
        })),
        { goal: 'a huge answer', config: { mode: 'huge' }, evaluator: { type: 'trajectory_match', observable: 'reply', pattern: '^echo' } },
        {
          goal: 'a nested answer',
          config: { mode: 'nested' },
          evaluator: { type: 'trajectory_match', observable: 'reply', pattern: '^echo' },
        },
      ],
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
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('stop reasons: max_runs 3, success 1, error 1')
  } finally {
    await Promise.all([target.close(), llm.close()])
  }

  const w = watch(page, context)
  await page.goto('/results')
  await page.getByTestId('folder-input').setInputFiles(out)
  const experiment = page.getByRole('region', { name: 'Experiments' }).getByRole('link').first()
  await expect(experiment).toBeVisible()
  const home = page.url()
  await expectInert(page, w, home)
  await experiment.click()
  const rows = page.getByRole('list', { name: 'Task rows' })
  await expect(rows.getByRole('link', { name: goals[0] })).toBeVisible()
  await expectInert(page, w, page.url())
  // The task whose target answered JSON nested 100,000 deep failed alone, and says why.
  await rows.getByRole('link', { name: 'a nested answer' }).click()
  await page.getByText('Error', { exact: true }).click()
  await expect(page.locator('.results-error pre')).toContainText(
    'answered 200 with JSON nested deeper than 1,000 levels (refused unparsed)',
  )
  await page.goBack()
  // Every task, every run, every row of its trajectory.
  for (let t = 0; t < 4; t++) {
    await rows.getByRole('link').nth(t).click()
    await page.getByRole('link', { name: 'Run 1', exact: true }).click()
    const grid = page.getByRole('grid', { name: /Trajectory/ })
    await expect(grid).toBeVisible()
    const count = await page.locator('[role="row"][data-event]').count()
    expect(count).toBeGreaterThan(2)
    for (let i = 0; i < Math.min(count, 40); i++) await page.locator(`[role="row"][data-event="${i}"]`).click()
    const panel = page.getByRole('complementary', { name: 'Selected step' })
    await expect(panel).toBeVisible()
    if (t === 0) await expect(grid).toContainText(HOSTILE_STRINGS[0])
    await expectInert(page, w, page.url())
    // The keyboard still steps: a frozen page would not move the selection.
    await page.keyboard.press('Home')
    await page.keyboard.press('j')
    await expect(page.locator('[role="row"][aria-selected="true"]')).toHaveAttribute('data-event', '1')
    if (t < 3) {
      // Two runs: their diff shows both injections side by side.
      await page.getByRole('link', { name: /^Diff with run/ }).click()
      await expect(page.getByRole('region', { name: 'Run diff' })).toBeVisible()
      await expectInert(page, w, page.url())
      await page.goBack()
    }
    await page.goBack()
    await page.goBack()
    await expect(rows).toBeVisible()
  }
  // The presenter shows one step at a time, big: the same text, still inert.
  await rows.getByRole('link').first().click()
  await page.getByRole('link', { name: 'Run 2', exact: true }).click()
  await page.getByRole('button', { name: /Presenter/ }).click()
  await expect(page).toHaveURL(/present=1/)
  await page.keyboard.press('ArrowRight')
  await page.keyboard.press('ArrowRight')
  await expectInert(page, w, page.url())
})

test('results viewer: a trajectory nested 200,000 deep is refused with the file named, and the page stays usable', async ({
  page,
  context,
}, info) => {
  const root = info.outputPath('deep')
  cpSync(FIXTURE, root, { recursive: true })
  const run = join(root, EXP, 'tasks', TASK, 'trajectories', 'run_00002.json')
  const text = readFileSync(run, 'utf8').replace(/"content": "[^"]*"/, `"content": ${deeplyNestedJson(200_000)}`)
  expect(text).toContain('[[[[')
  writeFileSync(run, text)
  const w = watch(page, context)
  await page.goto('/results')
  await page.getByTestId('folder-input').setInputFiles(root)
  await page.getByRole('link', { name: EXP }).click()
  await page.getByRole('link', { name: /^leak/ }).click()
  await page.getByRole('link', { name: 'Run 2', exact: true }).click()
  await expect(page.getByRole('alert').first()).toContainText(`${TASK}/trajectories/run_00002.json: JSON nested deeper than 1,000 levels`)
  await expectInert(page, w, page.url())
  // Run 1 still opens.
  await page.goBack()
  await page.getByRole('link', { name: 'Run 1', exact: true }).click()
  await expect(page.getByRole('grid', { name: /Trajectory/ })).toBeVisible()
})
