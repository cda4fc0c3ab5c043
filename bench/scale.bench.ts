/**
 * Scale figures for docs/hardening.md, each with wall time and peak memory
 * (RSS and heap sampled every 10 ms in Node; the JS heap from CDP
 * Performance.getMetrics in Chromium), and a baseline where one makes sense:
 * - a forest of 5,000 tags (bushy, and one 5,000-deep chain): the engine and
 *   file formats in Node; the designer's first render and JS heap in Chromium;
 * - a trajectory of 100,000 events: run through the Controller, written as a
 *   superred tree, read back with zod and aligned; opened in the viewer;
 * - an experiment of 1,000 tasks against the demo assistant over loopback
 *   HTTP (the protocol, results on disk), beside the same in process;
 * - a sweep of 1,000 threat models against the demo assistant over HTTP,
 *   beside the same in process;
 * - the app's initial JavaScript per section, from the build's import graph
 *   and from what Chromium actually loads, and where the openai SDK sits.
 * Printed, never asserted. `npm run bench -- scale`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { setMaxListeners } from 'node:events'
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import v8 from 'node:v8'
import { runInNewContext } from 'node:vm'
import { gzipSync } from 'node:zlib'
import { chromium, type CDPSession, type Page } from '@playwright/test'
import { NodeFsStorage } from '../src/adapters/storage/nodeFsStorage'
import { payloadNamed, templateOptimizerFactory } from '../src/attackers'
import { claimFromFile, parseClaimFile, type ClaimFile } from '../src/claims'
import { Controller, runAll, SecurityClaim, targetFactory, type TargetFactory } from '../src/core/engine'
import { ScriptedOptimizer, ScriptedTask, StubTarget, fixtureEvaluation, stubForest, type Step } from '../src/core/engine/testkit'
import { coverage, docFromForest, scopeFindings, tagIdOf } from '../src/core/model'
import { buildReplay, coverageFor } from '../src/core/replay'
import { listExperiments, readTrajectory } from '../src/core/results'
import {
  buildDomain,
  combinationAt,
  countCombinations,
  scopeOf,
  subtreeCounts,
  validateScope,
  type Forest,
  type SecurityDomain,
} from '../src/core/tags'
import { layoutForest } from '../src/core/layout/forestLayout'
import { forestToJson, parseForestJson } from '../src/lib/forestJson'
import { decodePermalink, encodePermalink } from '../src/lib/permalink'
import { forestToPython } from '../src/lib/pythonExport'
import { parseSecurityTags } from '../src/lib/pythonTags'
import { connectHttpTarget } from '../src/protocol'
import { createTargetServer } from '../src/servers/target'
import { REFERENCE_TARGETS, referenceTargetOptions } from '../src/reference-targets'
import { row, freePort, waitForHttp } from './util'

const MB = 2 ** 20

/** A real gc() (the bench runs without --expose-gc): to tell what a result keeps from what was garbage. */
const gc: () => void = (() => {
  v8.setFlagsFromString('--expose_gc')
  return runInNewContext('gc') as () => void
})()

/** Peak RSS and heap while `fn` runs (sampled every 10 ms, and at both ends). */
async function measured<T>(fn: () => T | Promise<T>): Promise<{ ms: number; value: T; rssMb: number; heapMb: number; retainedMb: number }> {
  gc()
  const start = process.memoryUsage()
  let rss = start.rss
  let heap = start.heapUsed
  const sample = () => {
    const m = process.memoryUsage()
    rss = Math.max(rss, m.rss)
    heap = Math.max(heap, m.heapUsed)
  }
  const timer = setInterval(sample, 10)
  const t0 = performance.now()
  try {
    const value = await fn()
    const ms = performance.now() - t0
    sample()
    // What is still reachable once the work is done, the result included.
    gc()
    const retainedMb = (process.memoryUsage().heapUsed - start.heapUsed) / MB
    return { ms, value, rssMb: rss / MB, heapMb: heap / MB, retainedMb }
  } finally {
    clearInterval(timer)
  }
}

const show = (label: string, m: { ms: number; rssMb: number; heapMb: number; retainedMb: number }, ...extra: Array<string | number>) =>
  row(
    label,
    `${m.ms.toFixed(0)} ms`,
    `peak RSS ${m.rssMb.toFixed(0)} MB`,
    `peak heap ${m.heapMb.toFixed(0)} MB`,
    `kept after GC ${m.retainedMb.toFixed(0)} MB`,
    ...extra,
  )

// ---------------------------------------------------------------------------
// Forests of 5,000 tags

function bushyForest(size: number): Forest {
  return {
    tags: Array.from({ length: size }, (_, i) => ({
      name: `tag_${i}`,
      parent: i < 4 ? null : `tag_${Math.floor((i - 4) / 4)}`,
      description: `capability ${i}`,
    })),
  }
}
function chainForest(size: number): Forest {
  return {
    tags: Array.from({ length: size }, (_, i) => ({
      name: `tag_${i}`,
      parent: i === 0 ? null : `tag_${i - 1}`,
      description: `capability ${i}`,
    })),
  }
}

async function forests(): Promise<void> {
  row('## forest of 5,000 tags (Node)', 'wall', 'peak RSS', 'peak heap')
  for (const [shape, forest] of [
    ['bushy (4 roots, 4 children each)', bushyForest(5_000)],
    ['one chain 5,000 deep', chainForest(5_000)],
  ] as const) {
    const m = await measured(() => {
      const t: Record<string, number> = {}
      const lap = (k: string, f: () => unknown) => {
        const s = performance.now()
        const v = f()
        t[k] = performance.now() - s
        return v
      }
      const domain = lap('build', () => buildDomain(forest)) as SecurityDomain
      const count = lap('count', () => countCombinations(domain)) as bigint
      const names = forest.tags.map((x) => x.name)
      lap('validate', () => validateScope(domain, names.slice(100, 200), names.slice(300, 310)))
      const doc = docFromForest(
        forest,
        (() => {
          let i = 0
          return () => tagIdOf(`id${i++}`)
        })(),
        { scope: names.slice(100, 200), readOnly: names.slice(300, 310) },
      )
      lap('coverage', () => coverage(doc.tags, doc))
      lap('findings', () => scopeFindings(doc))
      lap('layout', () => layoutForest(forest))
      lap('FOREST.json', () => parseForestJson(forestToJson(forest)))
      lap('security_tags.py', () => parseSecurityTags(forestToPython(forest)))
      const link = lap('permalink', () => encodePermalink({ forest, scope: names.slice(0, 1), readOnly: [] })) as string
      lap('permalink open', () => decodePermalink(link.slice('share='.length)))
      return { t, count, link: link.length }
    })
    const t = m.value.t
    show(`${shape}: everything below`, m)
    row('  build / count / validate / coverage / findings (ms)', t.build, t.count, t.validate, t.coverage, t.findings)
    row('  layout / FOREST.json / .py round trips (ms)', t.layout, t['FOREST.json'], t['security_tags.py'])
    row('  permalink encode / open (ms), link length', t.permalink, t['permalink open'], m.value.link)
    row('  distinct combinations (digits)', m.value.count.toString().length)
  }
}

// ---------------------------------------------------------------------------
// A trajectory of 100,000 events

async function trajectory100k(dir: string): Promise<string> {
  row('## trajectory of 100,000 events (Node)', 'wall', 'peak RSS', 'peak heap')
  // One run: 33,333 × (pre-call → injection → observation) + the run end.
  const steps: Step[] = []
  for (let i = 0; i < 33_333; i++) {
    steps.push({ kind: 'pre', controllable: 'user_msg', request: `turn ${i}` })
    steps.push({ kind: 'observe', observable: 'model_output', content: `answer ${i} `.repeat(4) })
  }
  const forest = stubForest()
  const storage = new NodeFsStorage(dir)
  const run = await measured(() =>
    new Controller({
      optimizerFactory: () => new ScriptedOptimizer({ done: () => true }),
      targetFactory: targetFactory(() => new StubTarget(forest, () => steps), 1),
      securityClaim: SecurityClaim.fromTasks([new ScriptedTask('a very long run', () => fixtureEvaluation(forest, true, 1))], 'bench'),
      scope: scopeOf([forest.user]),
      readOnly: scopeOf([forest.model]),
      maxRunsPerTask: 1,
      storage,
      domain: forest.domain,
    }).run(),
  )
  const resultsDir = run.value.resultsDir!
  const file = join(dir, resultsDir, 'tasks', readdirSync(join(dir, resultsDir, 'tasks'))[0], 'trajectories', 'run_00001.json')
  const items = run.value.taskResults[0].runs[0].trajectory.length
  show(
    'run it through the Controller and write it',
    run,
    `${items.toLocaleString('en-US')} items`,
    `${(statSync(file).size / MB).toFixed(1)} MB on disk`,
  )
  const read = await measured(() => readTrajectory(storage, join(resultsDir, 'tasks', readdirSync(join(dir, resultsDir, 'tasks'))[0]), 1))
  show('read it back (zod-validated)', read)
  const grant = { scope: ['user'], readOnly: ['model'] }
  const forestPlain = { tags: forest.domain.tags.map((t) => ({ name: t.name, parent: t.parent?.name ?? null, description: '' })) }
  const replay = await measured(() => buildReplay(read.value!.trajectory, null, coverageFor(forestPlain, grant)))
  show('align with the attacker view (replay)', replay, `${replay.value.rows.toLocaleString('en-US')} rows`)
  return join(dir, resultsDir)
}

// ---------------------------------------------------------------------------
// 1,000 tasks, and 1,000 threat models, against the demo assistant

const exfiltration = (): ClaimFile =>
  parseClaimFile(readFileSync('public/claims/assistant-exfiltration.json', 'utf8'), 'assistant-exfiltration.json')
const TEMPLATES = ['naive', 'important_instructions', 'spoofed_sender'].map((n) => payloadNamed(n)!.template)

async function withDemoTarget<T>(fn: (url: string) => Promise<T>): Promise<T> {
  const server = await createTargetServer({ ...referenceTargetOptions('assistant'), concurrency: 64 }).listen(0, '127.0.0.1')
  try {
    return await fn(server.url)
  } finally {
    await server.close()
  }
}

async function experiment1000(dir: string): Promise<void> {
  row('## experiment of 1,000 tasks (demo assistant, template attacker)', 'wall', 'peak RSS', 'peak heap')
  const base = exfiltration()
  // The four defences, 250 times each: every task a distinct goal.
  const file: ClaimFile = {
    ...base,
    tasks: Array.from({ length: 1_000 }, (_, i) => ({ ...base.tasks[i % 4], goal: `${base.tasks[i % 4].goal} (#${i + 1})` })),
  }
  const go = async (factory: TargetFactory, domain: SecurityDomain, storage: NodeFsStorage | null) => {
    let runs = 0
    // As the CLI does: 1,000 tasks queue on one cancel signal (Node would warn past 10 listeners).
    const cancel = new AbortController()
    setMaxListeners(0, cancel.signal)
    const m = await measured(() =>
      new Controller({
        optimizerFactory: templateOptimizerFactory({ templates: TEMPLATES }),
        targetFactory: factory,
        securityClaim: claimFromFile(file),
        scope: scopeOf([domain.get('inbox')!]),
        maxRunsPerTask: TEMPLATES.length,
        storage,
        domain,
      }).run({
        reporter: {
          runComplete: () => {
            runs += 1
          },
        },
        signal: cancel.signal,
      }),
    )
    return { m, runs, ok: m.value.taskResults.filter((t) => t.success).length }
  }
  const make = REFERENCE_TARGETS.assistant.factory()
  const inProcess = await go(targetFactory(make, 8), make().securityDomain, new NodeFsStorage(join(dir, 'inproc')))
  show('in process (results on disk)', inProcess.m, `${inProcess.runs.toLocaleString('en-US')} runs`, `${inProcess.ok} successful`)
  await withDemoTarget(async (url) => {
    const factory = await connectHttpTarget(url, { maxConcurrency: 8 })
    const http = await go(factory, factory.surfaces.domain, new NodeFsStorage(join(dir, 'http')))
    show('over loopback HTTP (results on disk)', http.m, `${http.runs.toLocaleString('en-US')} runs`, `${http.ok} successful`)
    row('  HTTP / in process (time ratio)', (http.m.ms / inProcess.m.ms).toFixed(2))
  })
}

/** 1,000 distinct threat models: each non-empty combination, then read-only variants. */
function threatModels(domain: SecurityDomain, n: number): Array<{ scope: string[]; readOnly: string[] }> {
  const counts = subtreeCounts(domain)
  const total = countCombinations(domain)
  const out: Array<{ scope: string[]; readOnly: string[] }> = []
  for (const ro of [null, 'model_identity', 'user', 'inbox', 'calendar', 'drive', 'system_prompt']) {
    for (let i = 1n; i < total && out.length < n; i++) {
      const tags = combinationAt(domain, i, counts)
      if (ro !== null && tags.some((t) => t.includes(domain.get(ro)!))) continue
      out.push({ scope: tags.map((t) => t.name), readOnly: ro === null ? [] : [ro] })
    }
  }
  return out
}

async function sweep1000(dir: string): Promise<void> {
  row('## sweep of 1,000 threat models (demo assistant, 4 tasks each, 8 at once)', 'wall', 'peak RSS', 'peak heap')
  const file = exfiltration()
  const go = async (factory: TargetFactory, domain: SecurityDomain, storage: NodeFsStorage) => {
    const models = threatModels(domain, 1_000)
    const cancel = new AbortController()
    setMaxListeners(0, cancel.signal)
    let runs = 0
    const m = await measured(() =>
      runAll(
        models.map(
          (t) =>
            new Controller({
              optimizerFactory: templateOptimizerFactory({ templates: TEMPLATES }),
              targetFactory: factory,
              securityClaim: claimFromFile(file),
              scope: scopeOf(t.scope.map((x) => domain.get(x)!)),
              readOnly: scopeOf(t.readOnly.map((x) => domain.get(x)!)),
              maxRunsPerTask: TEMPLATES.length,
              storage,
              domain,
              attackerLabel: 'template',
              targetLabel: 'redscope-assistant',
              claimLabel: file.name,
            }),
        ),
        {
          concurrency: 8,
          signal: cancel.signal,
          reporter: {
            runComplete: () => {
              runs += 1
            },
          },
        },
      ),
    )
    const complete = (await listExperiments(storage)).filter((e) => e.status === 'complete').length
    return { m, runs, models: models.length, complete }
  }
  const make = REFERENCE_TARGETS.assistant.factory()
  const inProcess = await go(targetFactory(make, 4), make().securityDomain, new NodeFsStorage(join(dir, 'sweep-inproc')))
  show(
    `in process: ${inProcess.models} threat models`,
    inProcess.m,
    `${inProcess.runs.toLocaleString('en-US')} runs`,
    `${inProcess.complete} complete on disk`,
  )
  await withDemoTarget(async (url) => {
    const factory = await connectHttpTarget(url, { maxConcurrency: 4 })
    const http = await go(factory, factory.surfaces.domain, new NodeFsStorage(join(dir, 'sweep-http')))
    show(
      `over loopback HTTP: ${http.models} threat models`,
      http.m,
      `${http.runs.toLocaleString('en-US')} runs`,
      `${http.complete} complete on disk`,
    )
    row('  HTTP / in process (time ratio)', (http.m.ms / inProcess.m.ms).toFixed(2))
  })
}

// ---------------------------------------------------------------------------
// Chromium: initial JavaScript, and memory of the big views

/** The static import closure of a chunk (`import`/`from "./x.js"`, not `import("./x.js")`). */
function staticClosure(assets: string, entry: string): Set<string> {
  const seen = new Set<string>()
  const visit = (f: string) => {
    if (seen.has(f)) return
    seen.add(f)
    const text = readFileSync(join(assets, f), 'utf8')
    for (const m of text.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) visit(m[1])
  }
  visit(entry)
  return seen
}

const OPENAI_MARK = 'dangerouslyAllowBrowser'

async function buildGraph(dist: string): Promise<void> {
  row('## initial JavaScript (build import graph)', 'raw KB', 'gzip KB')
  const assets = join(dist, 'assets')
  const entry = /src="\/assets\/([^"]+\.js)"/.exec(readFileSync(join(dist, 'index.html'), 'utf8'))![1]
  const size = (files: Iterable<string>) => {
    let raw = 0
    let gz = 0
    for (const f of files) {
      const b = readFileSync(join(assets, f))
      raw += b.length
      gz += gzipSync(b).length
    }
    return [raw / 1024, gz / 1024]
  }
  const initial = staticClosure(assets, entry)
  row('entry chunk + its static imports (before any section)', ...size(initial))
  const all = readdirSync(assets).filter((f) => f.endsWith('.js'))
  row('all JavaScript in the build', ...size(all))
  const withOpenAi = all.filter((f) => readFileSync(join(assets, f), 'utf8').includes(OPENAI_MARK))
  row('chunks holding the openai SDK', withOpenAi.join(', ') || 'none')
  row('  in the initial closure?', withOpenAi.some((f) => initial.has(f)) ? 'YES' : 'no')
}

async function jsLoaded(page: Page, path: string, ready: () => Promise<unknown>): Promise<{ kb: number; files: string[]; ms: number }> {
  const files = new Map<string, number>()
  const onResponse = async (r: { url(): string; body(): Promise<Buffer> }) => {
    if (!r.url().endsWith('.js')) return
    try {
      files.set(r.url().split('/').pop()!, (await r.body()).length)
    } catch {
      /* navigated away */
    }
  }
  page.on('response', onResponse)
  const t0 = Date.now()
  await page.goto(path)
  await ready()
  const ms = Date.now() - t0
  await page.waitForTimeout(300)
  page.off('response', onResponse)
  return { kb: [...files.values()].reduce((a, b) => a + b, 0) / 1024, files: [...files.keys()], ms }
}

async function heapMbOf(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage')
  const { metrics } = await cdp.send('Performance.getMetrics')
  return metrics.find((m) => m.name === 'JSHeapUsedSize')!.value / MB
}

async function chromiumFigures(runFolder: string): Promise<void> {
  const port = await freePort()
  const dist = mkdtempSync(join(tmpdir(), 'redscope-scale-dist-'))
  const built = spawnSync('npx', ['vite', 'build', '--outDir', dist, '--emptyOutDir', '--logLevel', 'error'], { encoding: 'utf8' })
  if (built.status !== 0) throw new Error(`vite build failed: ${built.stderr}`)
  await buildGraph(dist)
  let server: ChildProcess | null = null
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  })
  try {
    server = spawn('npx', ['vite', 'preview', '--outDir', dist, '--host', '127.0.0.1', '--port', String(port), '--strictPort'], {
      stdio: 'ignore',
      detached: true,
    })
    const base = `http://127.0.0.1:${port}`
    await waitForHttp(base, 60_000)
    row('## initial JavaScript (what Chromium loads, fresh context each)', 'KB', 'ms to ready', 'openai SDK loaded?')
    const sections: Array<[string, string, (p: Page) => Promise<unknown>]> = [
      ['designer (/)', '/', (p) => p.getByRole('toolbar', { name: 'Designer' }).waitFor()],
      ['results viewer (/results)', '/results', (p) => p.getByTestId('folder-input').waitFor({ state: 'attached' })],
      ['run console (/run)', '/run', (p) => p.getByRole('group', { name: 'Target' }).waitFor()],
    ]
    for (const [label, path, ready] of sections) {
      const ctx = await browser.newContext({ baseURL: base })
      const page = await ctx.newPage()
      const r = await jsLoaded(page, path, () => ready(page))
      const openai = r.files.some((f) => readFileSync(join(dist, 'assets', f), 'utf8').includes(OPENAI_MARK))
      row(`  ${label}`, r.kb, r.ms, openai ? 'yes' : 'no')
      await ctx.close()
    }

    row('## JS heap in Chromium (CDP, after GC)', 'MB', 'ms to ready')
    const ctx = await browser.newContext({ baseURL: base, viewport: { width: 1440, height: 900 } })
    const page = await ctx.newPage()
    const cdp = await ctx.newCDPSession(page)
    await cdp.send('Performance.enable')
    await page.goto('/')
    await page.getByRole('toolbar', { name: 'Designer' }).waitFor()
    const baseline = await heapMbOf(cdp)
    row('  designer with the default forest (baseline)', baseline)
    const forest = bushyForest(5_000)
    // A fresh page, as a colleague opening the link: the whole app loads with the forest.
    const bigPage = await ctx.newPage()
    const bigCdp = await ctx.newCDPSession(bigPage)
    await bigCdp.send('Performance.enable')
    const t0 = Date.now()
    await bigPage.goto(`/#${encodePermalink({ name: '5,000 tags', forest, scope: [], readOnly: [] })}`)
    await bigPage.getByRole('status').filter({ hasText: 'Opened the shared threat model' }).waitFor({ timeout: 60_000 })
    await bigPage.locator('.react-flow__node[data-access]').first().waitFor({ timeout: 60_000 })
    const ms = Date.now() - t0
    const big = await heapMbOf(bigCdp)
    row('  designer with a 5,000-tag forest (fresh page)', big, ms)
    row('    ratio to baseline', (big / baseline).toFixed(2))
    await bigPage.close()
    await page.goto('/results')
    await page.getByTestId('folder-input').setInputFiles(runFolder)
    const t1 = Date.now()
    await page.getByRole('region', { name: 'Experiments' }).getByRole('link').first().click()
    await page.getByRole('list', { name: 'Task rows' }).getByRole('link').first().click()
    await page.getByRole('link', { name: 'Run 1', exact: true }).click()
    await page.getByRole('grid', { name: /Trajectory/ }).waitFor({ timeout: 60_000 })
    const ms2 = Date.now() - t1
    const viewer = await heapMbOf(cdp)
    row('  viewer with the 100,000-event run open', viewer, ms2)
    row('    ratio to the designer baseline', (viewer / baseline).toFixed(2))
    await ctx.close()
    if (!process.env.SCALE_SKIP_BROWSER_SWEEP) await browserSweep(browser, base)
  } finally {
    await browser.close()
    if (server?.pid) {
      try {
        process.kill(-server.pid)
      } catch {
        /* gone */
      }
    }
    rmSync(dist, { recursive: true, force: true })
  }
}

/**
 * The run console's sweep in Chromium: every threat model (scope) of the demo assistant served by the preview
 * (/targets/assistant/), the exfiltration claim, 3 payloads, 8 threat models at once; results in IndexedDB.
 * Samples the JS heap every 2 s and how long the page takes to answer while it runs.
 */
async function browserSweep(browser: import('@playwright/test').Browser, base: string): Promise<void> {
  // Every scope of the assistant's forest is 305 threat models (read-only variants, which take the Node sweep to 1,000, are not offered here).
  row('## sweep of every threat model of the demo assistant in the run console (Chromium)', 'value')
  const ctx = await browser.newContext({ baseURL: base, viewport: { width: 1440, height: 1000 } })
  const page = await ctx.newPage()
  const cdp = await ctx.newCDPSession(page)
  await cdp.send('Performance.enable')
  // The sweep runs over the designer's forest: take the assistant's, from its manifest.
  await page.goto('/')
  await page.locator('summary', { hasText: 'Import' }).click()
  await page.getByLabel('Target URL (GET /manifest)').fill(`${base}/targets/assistant`)
  await page.getByRole('button', { name: 'Import', exact: true }).click()
  await page.getByRole('status').filter({ hasText: 'Connected to redscope-assistant' }).waitFor()
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Run', exact: true }).click()
  await page.getByRole('radio', { name: /targets\/assistant/ }).click()
  await page.getByTestId('manifest').filter({ hasText: 'redscope-assistant' }).waitFor()
  await page.getByLabel(/^Shipped claim/).selectOption('assistant-exfiltration.json')
  await page.getByRole('button', { name: 'Untick all' }).click()
  for (const n of ['naive', 'important_instructions', 'spoofed_sender']) await page.getByLabel(`Use payload ${n}`).check()
  await page.getByLabel('Max runs per task', { exact: true }).fill('3')
  await page.getByRole('link', { name: 'Sweep threat models' }).click()
  await page.getByLabel('At most this many threat models').fill('1000')
  await page.getByLabel('Threat models at once').fill('8')
  row('  threat models', (await page.getByTestId('sweep-count').textContent()) ?? '?')
  const before = await heapMbOf(cdp)
  const t0 = Date.now()
  await page.getByRole('button', { name: 'Run sweep' }).click()
  let peak = before
  let worstAnswer = 0
  for (;;) {
    const a0 = Date.now()
    const state = await page.getByTestId('run-state').textContent()
    worstAnswer = Math.max(worstAnswer, Date.now() - a0)
    const { metrics } = await cdp.send('Performance.getMetrics')
    peak = Math.max(peak, metrics.find((m) => m.name === 'JSHeapUsedSize')!.value / MB)
    if (state === 'Finished' || state === 'Cancelled' || Date.now() - t0 > 15 * 60_000) break
    await new Promise((r) => setTimeout(r, 2_000))
  }
  const wall = Date.now() - t0
  const done = await page.getByTestId('stat-done').textContent()
  const summary = await page
    .getByTestId('sweep-summary')
    .textContent()
    .catch(() => '')
  const after = await heapMbOf(cdp)
  row('  wall (s), tasks done', (wall / 1000).toFixed(1), done ?? '?')
  row('  summary', summary ?? '')
  row('  JS heap before / peak (sampled) / after GC (MB)', before, peak, after)
  row('  slowest page answer while it ran (ms)', worstAnswer)
  await ctx.close()
}

export default async function scaleBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'redscope-scale-'))
  try {
    // SCALE_SKIP_NODE=1: only what the browser part needs; SCALE_SKIP_BROWSER=1 / SCALE_SKIP_BROWSER_SWEEP=1: no Chromium / no browser sweep.
    const node = !process.env.SCALE_SKIP_NODE
    if (node) await forests()
    const traj = join(dir, 'traj')
    mkdirSync(traj)
    await trajectory100k(traj)
    if (node) await experiment1000(dir)
    if (node) await sweep1000(dir)
    if (process.env.SCALE_SKIP_BROWSER) return
    // The viewer opens the folder that holds experiments.json and the experiment.
    await chromiumFigures(traj)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
