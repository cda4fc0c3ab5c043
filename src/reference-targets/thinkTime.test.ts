// @vitest-environment node
import { spawn, type ChildProcess } from 'node:child_process'
import { noInjection, type TrajectoryItem } from '../core/engine'
import { connectHttpTarget } from '../protocol'
import { createTargetServer } from '../servers/target'
import { referenceTargetOptions } from './catalog'
import { ChatbotTarget } from './chatbot/chatbotTarget'
import { DEFAULT_THINK_MS, parseThinkMs, thinkMsFromEnv, withThinkTime } from './thinkTime'
import { mountDemoTargets, type MountableServer } from './vitePlugin'

/** The chatbot pauses three times per run (system prompt, user message, model response). */
const PAUSES_PER_RUN = 3

/** One run of a protocol target, nobody injecting: its wall time in ms. */
async function timedRun(url: string): Promise<number> {
  const factory = await connectHttpTarget(url)
  const target = await factory.create()
  try {
    const items: TrajectoryItem[] = []
    const t0 = performance.now()
    await target.run(
      (i) => items.push(i),
      async (e) => noInjection(e, 'scope'),
    )
    const ms = performance.now() - t0
    expect(items.filter((i) => i.type === 'ObservableEvent').map((i) => i.type === 'ObservableEvent' && i.observable.name)).toEqual([
      'user_request',
      'reasoning',
      'reply',
    ])
    return ms
  } finally {
    await target.teardown()
  }
}

describe('think time of the served demo targets', () => {
  it('reads REDSCOPE_THINK_MS, answers at once by default (the live view paces itself), refuses nonsense naming the source', () => {
    expect(thinkMsFromEnv({})).toBe(0)
    expect(DEFAULT_THINK_MS).toBeGreaterThanOrEqual(500)
    expect(thinkMsFromEnv({ REDSCOPE_THINK_MS: '0' })).toBe(0)
    expect(thinkMsFromEnv({ REDSCOPE_THINK_MS: '250' })).toBe(250)
    expect(() => thinkMsFromEnv({ REDSCOPE_THINK_MS: 'slow' })).toThrow(/REDSCOPE_THINK_MS must be a whole number/)
    expect(() => parseThinkMs('-5', '--think-ms')).toThrow(/--think-ms/)
    expect(() => parseThinkMs('1.5', '--think-ms')).toThrow(/whole number/)
  })

  it('zero is the target itself: tests and benchmarks run exactly the code they ran before', () => {
    const t = new ChatbotTarget()
    expect(withThinkTime(t, 0)).toBe(t)
    const slow = withThinkTime(t, 50)
    expect(slow).not.toBe(t)
    // Everything but run is the target's own, getters included.
    expect(slow.securityDomain).toBe(t.securityDomain)
    expect(slow.getControllables()).toEqual(t.getControllables())
  })

  it('a served target pauses before each step, and in-process targets never wait', async () => {
    const THINK = 120
    const slow = await createTargetServer(referenceTargetOptions('chatbot', {}, THINK)).listen(0)
    try {
      expect(await timedRun(slow.url)).toBeGreaterThanOrEqual(PAUSES_PER_RUN * THINK - 5)
    } finally {
      await slow.close()
    }
    // Without a think time the factory's targets are the plain ones (wall time is not asserted: the machine may be loaded).
    const plain = referenceTargetOptions('chatbot')
    const target = await plain.create()
    expect(target.run).toBe(ChatbotTarget.prototype.run)
    const thinking = await referenceTargetOptions('chatbot', {}, THINK).create()
    expect(thinking.run).not.toBe(ChatbotTarget.prototype.run)
  })

  it('a cancelled run stops thinking at once', async () => {
    const target = withThinkTime(new ChatbotTarget(), 10_000)
    const abort = new AbortController()
    const t0 = performance.now()
    const run = target.run(
      () => {},
      async (e) => noInjection(e, 'scope'),
      abort.signal,
    )
    setTimeout(() => abort.abort(new Error('cancelled')), 20)
    await expect(run).rejects.toThrow('cancelled')
    expect(performance.now() - t0).toBeLessThan(1000)
  })

  it("the app's demo targets take REDSCOPE_THINK_MS", async () => {
    const mounted: Array<{ path: string; handler: Parameters<MountableServer['middlewares']['use']>[1] }> = []
    let closing: (() => void) | null = null
    mountDemoTargets(
      {
        middlewares: { use: (path, handler) => mounted.push({ path, handler }) },
        httpServer: {
          once: (_e, l) => {
            closing = l
          },
        },
      },
      [],
      90,
    )
    expect(mounted.map((m) => m.path)).toEqual(['/targets/assistant', '/targets/chatbot'])
    const { createServer } = await import('node:http')
    const chatbot = mounted[1].handler
    const server = createServer((req, res) => chatbot(req, res))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = server.address() as { port: number }
      expect(await timedRun(`http://127.0.0.1:${port}`)).toBeGreaterThanOrEqual(PAUSES_PER_RUN * 90 - 5)
    } finally {
      await new Promise((resolve) => server.close(resolve))
      await Promise.all(mounted.map((m) => m.handler.close()))
      expect(closing).not.toBeNull()
    }
  })
})

describe('redscope serve-target --think-ms', () => {
  const children: ChildProcess[] = []
  afterAll(() => {
    for (const c of children) c.kill('SIGTERM')
  })

  async function serve(args: string[], env: Record<string, string>): Promise<{ url: string; line: string }> {
    const child = spawn(process.execPath, ['bin/redscope.mjs', 'serve-target', 'chatbot', '--port', '0', ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    children.push(child)
    const line = await new Promise<string>((resolve, reject) => {
      let out = ''
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString()
        if (out.includes('\n')) resolve(out.split('\n')[0])
      })
      child.once('exit', (code) => reject(new Error(`serve-target exited ${code}: ${out}`)))
    })
    return { url: /at (http:\S+) /.exec(line)![1], line }
  }

  it(
    'the flag wins over the environment, the environment over the default (none), and the line says the pace',
    { timeout: 30_000 },
    async () => {
      const [flagged, fromEnv, byDefault] = await Promise.all([
        serve(['--think-ms', '100'], { REDSCOPE_THINK_MS: '0' }),
        serve([], { REDSCOPE_THINK_MS: '250' }),
        serve([], { REDSCOPE_THINK_MS: '' }),
      ])
      expect(flagged.line).toContain('100 ms think time per step')
      expect(await timedRun(flagged.url)).toBeGreaterThanOrEqual(PAUSES_PER_RUN * 100 - 5)
      expect(fromEnv.line).toContain('250 ms think time per step')
      // A CLI sweep is not slowed by a pace meant for people watching the browser's live view.
      expect(byDefault.line).not.toContain('think time')
    },
  )
})
