// @vitest-environment node
/**
 * `redscope view` as a user runs it: the compiled bin in a child process,
 * its address read from stdout, stopped with SIGTERM at the end.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { main } from './main'

let dir: string
let children: ChildProcess[] = []

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'redscope-view-'))
  cpSync('e2e/fixtures/superred-results-example', join(dir, 'results'), { recursive: true })
})
afterEach(async () => {
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null || c.signalCode !== null) return resolve()
          c.once('exit', () => resolve())
          c.kill('SIGTERM')
        }),
    ),
  )
  children = []
  rmSync(dir, { recursive: true, force: true })
})

function startView(args: string[], env: Record<string, string> = {}): Promise<{ url: string; child: ChildProcess; out: string }> {
  const child = spawn(process.execPath, ['bin/redscope.mjs', 'view', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  return new Promise((resolve, reject) => {
    let out = ''
    let err = ''
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString()
      const m = /at (http:\/\/\S+?)[;\s]/.exec(out)
      if (m) resolve({ url: m[1], child, out })
    })
    child.stderr!.on('data', (c: Buffer) => (err += c.toString()))
    child.on('exit', (code) => reject(new Error(`view exited ${code}: ${err}`)))
  })
}

const io = () => {
  const out = { stdout: '', stderr: '' }
  return { out, io: { stdout: (s: string) => void (out.stdout += s), stderr: (s: string) => void (out.stderr += s) } }
}

describe('redscope view', () => {
  it('serves DIR read-only with the CSP header, on the Results address, until SIGTERM', async () => {
    const { url, child, out } = await startView([join(dir, 'results'), '--port', '0', '--no-open'])
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/results$/)
    // Nothing glued to the address that a terminal would take into the link (it printed "…/results;").
    expect(out).toMatch(/ at http:\/\/127\.0\.0\.1:\d+\/results \(Ctrl-C to stop\)\n/)
    const origin = new URL(url).origin
    const page = await fetch(url)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(await page.text()).toContain('<div id="root">')
    expect(await (await fetch(`${origin}/api/results`)).json()).toEqual({ label: 'results' })
    const index = await (await fetch(`${origin}/api/results/files/experiments.json`)).json()
    expect(index.experiments[0].dir).toBe('scripted__stub-agent__leak__no-llm-44a31aa2')
    const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  }, 90_000)

  it('takes its folder from $SUPERRED_RESULTS_DIR', async () => {
    const { url } = await startView(['--port', '0', '--no-open'], { SUPERRED_RESULTS_DIR: join(dir, 'results') })
    expect(await (await fetch(new URL('/api/results', url))).json()).toEqual({ label: 'results' })
  }, 90_000)

  it('refuses a missing folder, and a non-loopback address without a token, with one line and exit 2', async () => {
    const a = io()
    expect(await main(['view', join(dir, 'absent'), '--no-open'], a.io)).toBe(2)
    expect(a.out.stderr).toMatch(/^redscope view: no results folder at .*absent/)
    const b = io()
    expect(await main(['view', join(dir, 'results'), '--host', '0.0.0.0', '--no-open'], b.io)).toBe(2)
    expect(b.out.stderr).toMatch(/needs|token/)
  })
})
