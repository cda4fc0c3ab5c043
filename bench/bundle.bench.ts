/**
 * The static bundle (`redscope bundle`) of a sweep of 1,000 threat models
 * (the demo assistant, 4 tasks each, the template attacker, written to disk
 * as the sweep bench writes it, with its sweep.json): how long making it
 * takes and how big it is, and how long the sweep takes to open (navigation
 * to the summary and the grid's first rows painted) from file://, from a
 * static server, and, as the baseline in the same browser, through
 * `redscope view`'s server (src/servers/app) on the same tree. Also the
 * experiment list and a deep link to one step. Goal: the sweep opens in
 * under 2 s. Figures are printed, never asserted.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { extname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Browser, Page } from '@playwright/test'
import { NodeFsStorage } from '../src/adapters/storage/nodeFsStorage'
import { buildBundle, SITE_VIEWER_FILES } from '../src/core/bundle'
import { sweepRecordText, type SweepRecord } from '../src/core/sweep'
import { ASSISTANT_FOREST, REFERENCE_TARGETS } from '../src/reference-targets'
import { startAppServer } from '../src/servers/app'
import { withApp } from './app'
import { sweep, threatModels } from './sweep.bench'
import { med, row, time } from './util'

const MODELS = 1000
const OPENS = 5

function bytesUnder(dir: string): { bytes: number; files: number } {
  let bytes = 0
  let files = 0
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue
    bytes += statSync(join(e.parentPath, e.name)).size
    files++
  }
  return { bytes, files }
}

const mb = (b: number) => `${(b / 2 ** 20).toFixed(1)} MB`

/** A static host: the folder's files with real content types, nothing else. */
async function serveStatic(root: string): Promise<{ url: string; server: Server }> {
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' }
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
    const file = join(root, path === '/' ? 'index.html' : path)
    if (!file.startsWith(root) || path.includes('..')) return void res.writeHead(404).end()
    readFile(file).then(
      (body) => res.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream' }).end(body),
      () => res.writeHead(404).end(),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/`, server }
}

/** Median time from navigation to `ready` visible, each time in a fresh context (no cache, no state). */
async function openTime(browser: Browser, url: string, ready: (page: Page) => Promise<void>): Promise<number> {
  const samples: number[] = []
  for (let i = 0; i < OPENS + 1; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    const t = await time(async () => {
      await page.goto(url)
      await ready(page)
    })
    if (i > 0) samples.push(t.ms) // the first warms the disk cache and the browser
    await context.close()
  }
  return med(samples)
}

const sweepPainted = async (page: Page) => {
  await page
    .getByTestId('sweep-summary')
    .filter({ hasText: `of ${MODELS.toLocaleString('en-US')} threat models complete` })
    .waitFor({ timeout: 60_000 })
  await page.getByTestId('sweep-row').first().waitFor({ timeout: 60_000 })
}
const listPainted = async (page: Page) => {
  await page.getByTestId('experiment-row').first().waitFor({ timeout: 60_000 })
}
const stepShown = async (page: Page) => {
  await page.locator('[role="row"][aria-selected="true"]').waitFor({ timeout: 60_000 })
}

export default async function bundleBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'redscope-bundle-bench-'))
  try {
    const tree = join(dir, 'tree')
    const models = threatModels(REFERENCE_TARGETS.assistant.factory()().securityDomain, MODELS)
    const swept = await sweep(models, new NodeFsStorage(tree))
    const record: SweepRecord = {
      v: 1,
      id: 'bench-sweep',
      createdAt: Date.now(),
      title: `Sweep of ${MODELS} threat models`,
      target: 'redscope-assistant',
      claim: 'assistant-exfiltration',
      attacker: 'template',
      forest: ASSISTANT_FOREST,
      models: swept.results.map((r, i) => ({ dir: r.resultsDir!, index: '', scope: models[i].scope, readOnly: models[i].readOnly })),
    }
    writeFileSync(join(tree, 'sweep.json'), sweepRecordText(record))
    const source = bytesUnder(tree)
    row(`results tree: ${MODELS} threat models x 4 tasks`, `${source.files.toLocaleString('en-US')} files`, mb(source.bytes))

    await withApp(async ({ browser, outDir }) => {
      const made: Record<string, number> = {}
      for (const redact of [false, true]) {
        const site = join(dir, redact ? 'site' : 'site-plain')
        mkdirSync(join(site, 'data'), { recursive: true })
        for (const f of SITE_VIEWER_FILES) cpSync(join(outDir, 'site-viewer', f), join(site, f))
        const t = await time(() =>
          buildBundle(
            new NodeFsStorage(tree),
            { title: 'bench', createdAt: new Date(), madeBy: 'bench', redact },
            (path, text) =>
              new Promise<void>((resolve) => {
                writeFileSync(join(site, path), text)
                resolve()
              }),
          ),
        )
        made[redact ? 'redacted' : 'plain'] = t.ms
        if (redact) {
          const all = bytesUnder(site)
          const viewer = SITE_VIEWER_FILES.reduce((a, f) => a + statSync(join(site, f)).size, 0)
          row('bundle: total / viewer / data/index.js', mb(all.bytes), mb(viewer), mb(statSync(join(site, 'data', 'index.js')).size))
          row('  files, and against the results tree (bytes)', all.files, `${(all.bytes / source.bytes).toFixed(2)}x`)
          row('  values masked by the built-in rules', t.value.masked)
        }
      }
      row('making it (ms): redacted, not redacted, ratio', made.redacted, made.plain, `${(made.redacted / made.plain).toFixed(2)}x`)

      const site = join(dir, 'site')
      const fileUrl = pathToFileURL(join(site, 'index.html')).href
      const host = await serveStatic(site)
      const view = await startAppServer({ appDir: outDir, resultsDir: tree, demoTargets: false })
      try {
        const served = `${view.url}results`
        const src = `?src=${encodeURIComponent(`served:${view.resultsLabel}`)}`
        const baseline = await openTime(browser, `${served}/sweep${src}`, sweepPainted)
        const fromFile = await openTime(browser, `${fileUrl}#/sweep`, sweepPainted)
        const fromHost = await openTime(browser, `${host.url}index.html#/sweep`, sweepPainted)
        row(`sweep of ${MODELS} opens (median of ${OPENS}, ms)`, 'ms', 'vs redscope view', 'goal < 2,000 ms')
        row('  redscope view (baseline)', baseline, '1.00x')
        row('  bundle from file://', fromFile, `${(fromFile / baseline).toFixed(2)}x`, fromFile < 2000 ? 'met' : 'NOT met')
        row('  bundle from a static server', fromHost, `${(fromHost / baseline).toFixed(2)}x`, fromHost < 2000 ? 'met' : 'NOT met')
        const listBase = await openTime(browser, `${served}${src}`, listPainted)
        const listFile = await openTime(browser, fileUrl, listPainted)
        row('experiment list: view / bundle file:// (ms)', listBase, listFile, `${(listFile / listBase).toFixed(2)}x`)
        const exp = record.models[0].dir
        const task = readdirSync(join(tree, exp, 'tasks'))[0]
        const step = `/${exp}/${task}/1/2`
        const stepBase = await openTime(browser, `${served}${step}${src}`, stepShown)
        const stepFile = await openTime(browser, `${fileUrl}#${step}`, stepShown)
        row('deep link to a step: view / bundle file:// (ms)', stepBase, stepFile, `${(stepFile / stepBase).toFixed(2)}x`)
      } finally {
        await view.close()
        await new Promise<void>((resolve) => host.server.close(() => resolve()))
      }
    })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
