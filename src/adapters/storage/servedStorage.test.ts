// @vitest-environment node
/** The viewer's reader of a `redscope view` folder, against the real app server on loopback. */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { listExperiments, readExperiment, readTasks } from '../../core/results'
import { startAppServer, type RunningAppServer } from '../../servers/app'
import { ServedStorage, servedResultsLabel } from './servedStorage'

const EXP = 'scripted__stub-agent__leak__no-llm-44a31aa2'
let base: string
let servers: RunningAppServer[] = []

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'redscope-served-'))
  mkdirSync(join(base, 'dist'))
  writeFileSync(join(base, 'dist', 'index.html'), '<!doctype html>')
  cpSync('e2e/fixtures/superred-results-example', join(base, 'results'), { recursive: true })
})
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()))
  servers = []
  rmSync(base, { recursive: true, force: true })
})

async function served(withResults = true) {
  const s = await startAppServer({
    appDir: join(base, 'dist'),
    resultsDir: withResults ? join(base, 'results') : undefined,
    demoTargets: false,
  })
  servers.push(s)
  // The page fetches same-origin paths; here they are sent to the server's origin.
  const origin = s.url.replace(/\/$/, '')
  return ((input: string | URL | Request, init?: RequestInit) => fetch(`${origin}${String(input)}`, init)) as typeof fetch
}

describe('ServedStorage', () => {
  it('reads the served tree with the same reader as every other source', async () => {
    const f = await served()
    expect(await servedResultsLabel(f)).toBe('results')
    const storage = new ServedStorage('results', f)
    expect((await listExperiments(storage)).map((r) => r.dir)).toEqual([EXP])
    expect((await readExperiment(storage, EXP)).manifest.tasks).toHaveLength(1)
    expect((await readTasks(storage, EXP)).map((t) => t.task.goal)).toEqual(['leak the secret'])
  })

  it('finds an experiment that has no experiments.json row yet, through the folder listing', async () => {
    rmSync(join(base, 'results', 'experiments.json'))
    const storage = new ServedStorage('results', await served())
    expect((await listExperiments(storage)).map((r) => r.dir)).toEqual([EXP])
    expect(await storage.exists('experiments.json')).toBe(false)
    expect(await storage.list('no-such-folder')).toEqual([])
  })

  it('says no folder is served when the server has none, or the page is not on such a server', async () => {
    expect(await servedResultsLabel(await served(false))).toBeNull()
    // A static host answering the app's HTML for every address (as vite dev does).
    const spa = createServer((_req, res) => {
      res.setHeader('Content-Type', 'text/html')
      res.end('<!doctype html><div id="root"></div>')
    })
    await new Promise<void>((resolve) => spa.listen(0, '127.0.0.1', resolve))
    try {
      const origin = `http://127.0.0.1:${(spa.address() as AddressInfo).port}`
      expect(await servedResultsLabel(((input: string) => fetch(`${origin}${input}`)) as typeof fetch)).toBeNull()
    } finally {
      await new Promise((resolve) => spa.close(resolve))
    }
  })

  it('is read-only', async () => {
    const storage = new ServedStorage('results', await served())
    await expect(storage.writeTextAtomic()).rejects.toThrow(/read-only/)
  })
})
