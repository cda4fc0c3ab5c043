/** Builds superred results trees for the viewer's e2e tests, from the real fixture. */
import { cpSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from '@playwright/test'
import { zipSync } from 'fflate'

export const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'superred-results-example')
export const STUB_FOREST = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'stub-forest.json')
export const EXP = 'scripted__stub-agent__leak__no-llm-44a31aa2'
export const TASK = '00001__leak_the_secret'
export const TASK_DIR = `${EXP}/tasks/${TASK}`

export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? filesUnder(join(dir, n)) : [join(dir, n)]))
}

/** Puts a results tree where the run console writes it: one record per file in IndexedDB "redscope-results", keyed by its path. */
export async function putTreeInBrowser(page: Page, dir: string): Promise<void> {
  const files = filesUnder(dir).map((f) => [relative(dir, f), readFileSync(f, 'utf8')] as const)
  await page.evaluate(async (entries) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open('redscope-results', 1)
      req.onupgradeneeded = () => req.result.createObjectStore('files')
      req.onsuccess = () => resolve(req.result)
      req.onerror = () => reject(req.error)
    })
    const tx = db.transaction('files', 'readwrite')
    for (const [path, text] of entries) tx.objectStore('files').put(text, path)
    await new Promise((resolve) => {
      tx.oncomplete = resolve
    })
    db.close()
  }, files)
}

/** A zip of a folder, the folder's own name as the top entry (as "compress folder" makes it). */
export function zipFolder(dir: string, top: string): Uint8Array {
  const entries: Record<string, Uint8Array> = {}
  for (const f of filesUnder(dir)) entries[`${top}/${relative(dir, f)}`] = new Uint8Array(readFileSync(f))
  return zipSync(entries)
}

export function copyFixture(to: string): string {
  mkdirSync(to, { recursive: true })
  cpSync(FIXTURE, to, { recursive: true })
  return to
}

type Json = Record<string, unknown>
const readJson = (p: string): Json => JSON.parse(readFileSync(p, 'utf8'))
const writeJson = (p: string, v: unknown) => writeFileSync(p, JSON.stringify(v, null, 2))

/** Classic XSS payloads; any of them running sets window.__pwned or opens a dialog. */
export const XSS = {
  script: '<script>window.__pwned = "script"; alert("script")</script>',
  img: "<img src=x onerror=\"window.__pwned='img';alert('img')\">",
  svg: '"><svg onload="window.__pwned=\'svg\'">',
  js: "javascript:window.__pwned='href'",
  style: '</style><script>window.__pwned="style"</script>',
  iframe: '<iframe srcdoc="<script>parent.__pwned=\'iframe\'</script>"></iframe>',
}
export const SECRET = 'sk-proj-AbCdEfGhIjKlMnOpQrStUv123456'

/**
 * The fixture with hostile content: run 1 carries XSS payloads in every text
 * field the viewer shows (goal, request, answer, injected value, content,
 * rationale) plus an API key; run 2 differs from run 1 in its injection.
 */
export function writeHostileTree(to: string, opts: { hugeChars?: number } = {}): string {
  copyFixture(to)
  const exp = join(to, EXP)
  const task = join(exp, 'tasks', TASK)
  const run1 = join(task, 'trajectories', 'run_00001.json')
  const t = readJson(run1) as { trajectory: Json[] }
  const [pre, , , inj, obs] = t.trajectory
  pre.request = XSS.script
  inj.value = `${XSS.img} key=${SECRET}`
  obs.content = opts.hugeChars ? `${XSS.svg}${'A'.repeat(opts.hugeChars)}` : { html: XSS.svg, link: XSS.js, more: [XSS.style, XSS.iframe] }
  const end = t.trajectory[t.trajectory.length - 1] as { evaluation: { rationale: string } }
  end.evaluation.rationale = XSS.img
  writeJson(run1, t)
  const run2 = join(task, 'trajectories', 'run_00002.json')
  const t2 = readJson(run2) as { trajectory: Json[] }
  ;(t2.trajectory[3] as Json).value = 'a different injection'
  writeJson(run2, t2)
  for (const f of [join(exp, 'manifest.json')]) {
    const m = readJson(f) as { tasks: Json[] }
    m.tasks[0].goal = `leak ${XSS.script}`
    writeJson(f, m)
  }
  const tj = readJson(join(task, 'task.json'))
  tj.goal = `leak ${XSS.script}`
  writeJson(join(task, 'task.json'), tj)
  return to
}

/** A second threat model on the same task: the experiment copied under another folder, listed in experiments.json. */
export function addSecondExperiment(root: string, dir: string, change: (run2: { trajectory: Json[] }) => void): void {
  cpSync(join(root, EXP), join(root, dir), { recursive: true })
  const index = readJson(join(root, 'experiments.json')) as { experiments: Json[] }
  index.experiments.push({ ...index.experiments[0], dir })
  writeJson(join(root, 'experiments.json'), index)
  const run = join(root, dir, 'tasks', TASK, 'trajectories', 'run_00001.json')
  const t = readJson(run) as { trajectory: Json[] }
  change(t)
  writeJson(run, t)
}
