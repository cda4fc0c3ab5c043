// @vitest-environment node
/**
 * A target whose sessions are all taken (issue 32, point 5): a killed sweep's sessions held the target's
 * capacity until its idle timeout, and the resume waited 540 s without a word. The CLI now says when the
 * target answers 503 capacity and how long it will wait, gives up at --capacity-wait with a message that
 * says why, and a run stopped by SIGTERM closes its sessions as Ctrl-C does.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { referenceTargetOptions } from '../reference-targets'
import { createTargetHandler, type TargetHandler } from '../servers/target/targetHandler'
import { startChatServer, type ChatServer } from '../testing/chatServer'
import { CliProcesses } from '../testing/cliProcesses'
import { SHIPPED_CLAIMS } from '../testing/threatModelHarness'
import { main } from './main'

const dir = mkdtempSync(join(tmpdir(), 'redscope-capacity-'))
const EXFIL = join(SHIPPED_CLAIMS, 'assistant-exfiltration.json')
const procs = new CliProcesses()
let handler: TargetHandler
let server: Server
let url = ''
// The attacker's LLM never answers until the end: a task stays in flight, its session open, until stopped.
let release: () => void = () => undefined
const never = new Promise<string>((resolve) => (release = () => resolve('done')))
let chat: ChatServer

beforeAll(async () => {
  handler = createTargetHandler({ ...referenceTargetOptions('assistant'), concurrency: 1 })
  server = createServer((req, res) => handler(req, res))
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  chat = await startChatServer(() => never)
})
afterAll(async () => {
  await procs.stopAll()
  release()
  await chat.close()
  await handler.close()
  await new Promise<void>((done) => {
    server.close(() => done())
    server.closeAllConnections()
  })
  rmSync(dir, { recursive: true, force: true })
})

async function run(...argv: string[]) {
  let stdout = ''
  let stderr = ''
  const code = await main(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) })
  return { code, stdout, stderr }
}

const openSession = async () => {
  const r = await fetch(`${url}/sessions`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })
  expect(r.status).toBe(201)
  return ((await r.json()) as { session_id: string }).session_id
}
const closeSession = async (id: string) => expect((await fetch(`${url}/sessions/${id}`, { method: 'DELETE' })).status).toBe(204)
const runArgs = (out: string, ...extra: string[]) => [
  'run',
  '--target',
  url,
  '--claim',
  EXFIL,
  '--scope',
  'inbox',
  '--max-runs',
  '1',
  '--out',
  join(dir, out),
  ...extra,
]
const TEMPLATE = ['--template', 'naive']

describe('a target at capacity', () => {
  it('says so and how long it will wait, then gives up at --capacity-wait saying why', async () => {
    const held = await openSession()
    try {
      const r = await run(...runArgs('full', ...TEMPLATE, '--capacity-wait', '2'))
      // Said once, not once per task or per retry.
      const notes = r.stderr.split('\n').filter((l) => l.includes('no free session'))
      expect(notes).toEqual([
        'redscope run: the target has no free session (503 capacity: "1 sessions are open; retry later"): ' +
          'retrying every 1 s, for up to 2 s before giving up (--capacity-wait)',
      ])
      expect(r.stdout).toContain(
        'every session of the target stayed taken (503 capacity) for 2 s, the limit: gave up ' +
          "(another client, or a run that was killed, holds them until the target's idle timeout",
      )
    } finally {
      await closeSession(held)
    }
    expect(handler.sessionCount).toBe(0)
  }, 60_000)

  it('a session freed while it waits: the run goes on and finishes', async () => {
    const held = await openSession()
    let stdout = ''
    let stderr = ''
    const r = main(runArgs('freed', ...TEMPLATE), { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) })
    // Freed once the run has said it waits: the wait, not the order of two starts, is what is tested.
    await expect.poll(() => stderr, { timeout: 20_000 }).toContain('the target has no free session (503 capacity')
    await closeSession(held)
    expect(await r, stderr).toBe(0)
    expect(stdout).not.toContain('gave up')
    expect(handler.sessionCount).toBe(0)
  }, 60_000)

  it('a run stopped by SIGTERM closes the sessions it holds', async () => {
    const p = procs.start(runArgs('term', '--optimizer', 'llm', '--model', 'gpt-4o-mini', '--base-url', chat.baseURL), {
      OPENAI_API_KEY: 'sk-capacity-test',
    })
    await p.waitFor(/4 task\(s\) against/)
    await expect.poll(() => handler.sessionCount, { timeout: 20_000 }).toBe(1)
    await expect.poll(() => chat.calls.length, { timeout: 20_000 }).toBeGreaterThan(0)
    p.child.kill('SIGTERM')
    await p.exited
    // Closed by the run itself on its way out, not by the target's idle timeout (10 minutes).
    expect(handler.sessionCount).toBe(0)
  }, 60_000)
})
