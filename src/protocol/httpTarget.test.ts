// @vitest-environment node
import { injection, noInjection, type ControllableEvent, type ObservableEvent, type TrajectoryItem } from '../core/engine'
import { createTargetServer, type RunningTargetServer } from '../servers/target'
import { probeFactory, type ProbeStats } from '../testing/probeTarget'
import { json, startRawServer, type RawServer } from '../testing/rawServer'
import { connectHttpTarget } from './httpTargetFactory'
import { TargetRequestError } from './protocolClient'
import { PROTOCOL_VERSION } from './schemas'

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()))
})

async function probeServer(stats: ProbeStats = { created: 0, tornDown: 0 }, extra = {}): Promise<RunningTargetServer> {
  const s = await createTargetServer({ create: probeFactory(stats), name: 'probe', concurrency: 3, ...extra }).listen(0)
  closers.push(() => s.close())
  return s
}

async function raw(handler: Parameters<typeof startRawServer>[0]): Promise<RawServer> {
  const s = await startRawServer(handler)
  closers.push(() => s.close())
  return s
}

const manifestOf = (extra: Record<string, unknown> = {}) => ({
  protocol: PROTOCOL_VERSION,
  name: 'raw',
  security_domain: [{ name: 'user', parent: null }],
  controllables: [{ name: 'user_message', security_domain: 'user' }],
  observables: [],
  ...extra,
})

describe('HttpTarget against the server library', () => {
  it('drives a run: observations keep their domains and ids, pauses reach sendEvent, responses reach the target', async () => {
    const server = await probeServer()
    const factory = await connectHttpTarget(server.url)
    expect(factory.concurrency).toBe(3)
    const target = await factory.create()
    const items: TrajectoryItem[] = []
    const asked: ControllableEvent[] = []
    await target.run(
      (i) => items.push(i),
      async (e) => {
        asked.push(e)
        return e.type === 'ControllablePreCallEvent' ? injection(e, 'hi from the attacker') : noInjection(e, 'scope')
      },
    )
    expect(asked.map((e) => [e.type, e.controllable.name])).toEqual([
      ['ControllablePreCallEvent', 'user_message'],
      ['ControllablePostCallEvent', 'inbox_email'],
    ])
    expect(asked[0].controllable).toBe(target.getControllables()[0])
    expect((asked[1] as { answer?: string }).answer).toBe('one email')
    const obs = items as ObservableEvent[]
    expect(obs.map((o) => o.observable.name)).toEqual(['echo', 'echo', 'trace', 'echo'])
    expect(obs[2].securityDomain).toBe(target.securityDomain.get('inbox'))
    expect(obs[2].observable.securityDomain).toBe(target.securityDomain.get('system'))
    expect(obs[0].eventId).toMatch(/^[0-9a-f-]{36}$/)
    expect(await target.query('injections')).toBe('["hi from the attacker"]')
    await target.resetEphemeralState()
    expect(await target.query('injections')).toBe('[]')
    await target.teardown()
  })

  it('keeps its connection alive for a whole session: every step, reset, config, query and the delete reuse it', async () => {
    // A server that closed after each answer would cost a TCP handshake per step (issue 15's protocol row).
    const server = await probeServer()
    let connections = 0
    server.server.on('connection', () => {
      connections++
    })
    const target = await (await connectHttpTarget(server.url)).create()
    // Node's fetch (undici) may open a second socket for the first POST after the manifest's GET: once per factory, not per step.
    const afterCreate = connections
    expect(afterCreate).toBeLessThanOrEqual(2)
    let steps = 0
    for (let i = 0; i < 5; i++) {
      await target.run(
        () => {},
        async (e) => {
          steps++
          return noInjection(e, 'scope')
        },
      )
      await target.resetEphemeralState()
    }
    await target.setConfig('mode', 'ok')
    expect(await target.query('injections')).toBe('[]')
    await target.teardown()
    expect(steps).toBe(10)
    expect(connections).toBe(afterCreate)
  })

  it('every target of one factory shares the same tag objects (scopes match by identity)', async () => {
    const factory = await connectHttpTarget((await probeServer()).url)
    const [a, b] = [await factory.create(), await factory.create()]
    expect(a.securityDomain).toBe(b.securityDomain)
    expect(a.getControllables()[1].securityDomain).toBe(factory.surfaces.domain.get('inbox'))
  })

  it("a failed run rejects with the target's error and the endpoint", async () => {
    const server = await probeServer()
    const target = await (await connectHttpTarget(server.url)).create()
    await target.setConfig('mode', 'fail')
    const error = await target
      .run(
        () => {},
        async (e) => noInjection(e),
      )
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TargetRequestError)
    expect((error as Error).message).toBe(
      `POST ${server.url}/sessions/${target.sessionId}/runs/r1/responses: the target's run failed: Error: the probe failed on purpose`,
    )
  })

  it('config and query errors name the endpoint and carry the code', async () => {
    const server = await probeServer()
    const target = await (await connectHttpTarget(server.url)).create()
    const e = await target.setConfig('bogus', 'x').then(
      () => null,
      (err: TargetRequestError) => err,
    )
    expect(e?.code).toBe('unknown_config')
    expect(e?.message).toMatch(
      new RegExp(`^POST ${server.url}/sessions/[^/]+/config: answered 422 unknown_config: no config named 'bogus'`),
    )
  })

  it('cancellation deletes the session at once, even while the optimizer is thinking', async () => {
    const stats = { created: 0, tornDown: 0 }
    const server = await probeServer(stats)
    const factory = await connectHttpTarget(server.url)
    const target = await factory.create()
    const control = new AbortController()
    const run = target.run(
      () => {},
      (e) =>
        new Promise((resolve) => {
          control.abort(new Error('user cancelled'))
          setTimeout(() => resolve(noInjection(e)), 200)
        }),
      control.signal,
    )
    await expect(run).rejects.toThrow()
    expect(stats.created).toBe(2) // the manifest's probe instance and the session's
    expect(stats.tornDown).toBe(2)
    const again = await fetch(`${server.url}/sessions/${target.sessionId}/reset`, { method: 'POST', body: '{}' })
    expect(again.status).toBe(404)
  })

  it('503 capacity is waited out per Retry-After, then the session opens', async () => {
    const server = await probeServer(undefined, { concurrency: 1, retryAfterSeconds: 0.2 })
    const factory = await connectHttpTarget(server.url)
    const first = await factory.create()
    const started = Date.now()
    setTimeout(() => void first.teardown(), 300)
    const second = await factory.create()
    expect(Date.now() - started).toBeGreaterThanOrEqual(250)
    expect(second.sessionId).not.toBe(first.sessionId)
  })

  it('gives up on capacity after capacityWaitMs with a clear error', async () => {
    const server = await probeServer(undefined, { concurrency: 1, retryAfterSeconds: 0.05 })
    const factory = await connectHttpTarget(server.url, { capacityWaitMs: 200 })
    await factory.create()
    await expect(factory.create()).rejects.toThrow(
      /POST .*\/sessions: every session of the target stayed taken \(503 capacity\) for 0.2 s, the limit: gave up .*the target said: "/,
    )
  })

  it('sends the bearer token to its target only, and never shows it', async () => {
    const server = await probeServer(undefined, { token: 'tok-123' })
    await expect(connectHttpTarget(server.url)).rejects.toThrow(/GET .*\/manifest: answered 401 unauthorized/)
    const factory = await connectHttpTarget(server.url, { token: 'tok-123' })
    const target = await factory.create()
    await target.run(
      () => {},
      async (e) => noInjection(e),
    )
    const other = await raw((_req, res) => json(res, 200, manifestOf()))
    const plain = await connectHttpTarget(other.url)
    expect(plain.manifest.name).toBe('raw')
    expect(other.requests.every((r) => r.authorization === undefined)).toBe(true)
    const failing = await connectHttpTarget(`${server.url}/nowhere`, { token: 'tok-123' }).catch((e: Error) => e)
    expect((failing as Error).message).not.toContain('tok-123')
  })
})

describe('HttpTarget against misbehaving targets', () => {
  it('refuses a manifest of another protocol major', async () => {
    const s = await raw((_req, res) => json(res, 200, manifestOf({ protocol: 'superred-target-http/2' })))
    await expect(connectHttpTarget(s.url)).rejects.toThrow(
      `GET ${s.url}/manifest: answered 200 with a body that breaks the protocol: protocol: is "superred-target-http/2", but this client speaks superred-target-http/1 (major 1) only`,
    )
  })

  it('refuses garbage with the endpoint and a preview of what came', async () => {
    const s = await raw((_req, res) => json(res, 200, '<html>hello</html>'))
    await expect(connectHttpTarget(s.url)).rejects.toThrow(
      `GET ${s.url}/manifest: answered 200 with a body that is not JSON: "<html>hello</html>"`,
    )
  })

  it('fails a run whose pause names a controllable the manifest does not declare', async () => {
    const s = await raw((req, res) => {
      if (req.url === '/manifest') return json(res, 200, manifestOf())
      if (req.url === '/sessions') return json(res, 201, { session_id: 's1' })
      json(res, 200, {
        run_id: 'r1',
        events: [],
        status: 'paused',
        error: null,
        pause: { call_id: 'c1', type: 'ControllablePreCallEvent', controllable: 'secret_door', request: '' },
      })
    })
    const target = await (await connectHttpTarget(s.url)).create()
    await expect(
      target.run(
        () => {},
        async (e) => noInjection(e),
      ),
    ).rejects.toThrow(
      `POST ${s.url}/sessions/s1/runs: the target paused at controllable 'secret_door', which its manifest does not declare`,
    )
  })

  it('fails an event whose observable names an unknown tag', async () => {
    const s = await raw((req, res) => {
      if (req.url === '/manifest') return json(res, 200, manifestOf())
      if (req.url === '/sessions') return json(res, 201, { session_id: 's1' })
      json(res, 200, {
        run_id: 'r1',
        status: 'finished',
        events: [
          {
            type: 'ObservableEvent',
            content: 1,
            observable: { name: 'x', security_domain: 'nowhere', description: '', observable_type: 'text' },
          },
        ],
      })
    })
    const target = await (await connectHttpTarget(s.url)).create()
    await expect(
      target.run(
        () => {},
        async (e) => noInjection(e),
      ),
    ).rejects.toThrow("events[0] (observable 'x'): tag 'nowhere' is not in the manifest's security_domain")
  })

  it('a 500 with a non-protocol body, a dropped connection, a refused connection and a timeout each say so', async () => {
    let mode = 'ok'
    const s = await raw((req, res) => {
      if (req.url === '/manifest') return json(res, 200, manifestOf())
      if (mode === '500') return json(res, 500, 'Internal Server Error')
      if (mode === 'drop') return req.socket.destroy()
      // mode 'hang': never answers
    })
    const factory = await connectHttpTarget(s.url, { requestTimeoutMs: 300 })
    mode = '500'
    await expect(factory.create()).rejects.toThrow(`POST ${s.url}/sessions: answered 500 "Internal Server Error"`)
    mode = 'drop'
    await expect(factory.create()).rejects.toThrow(`POST ${s.url}/sessions: the connection was dropped before an answer came`)
    mode = 'hang'
    await expect(factory.create()).rejects.toThrow(`POST ${s.url}/sessions: no answer within 0.3 s (per-request timeout)`)
    const gone = await startRawServer(() => {})
    await gone.close()
    await expect(connectHttpTarget(gone.url)).rejects.toThrow(
      new RegExp(`^GET ${gone.url}/manifest: no connection \\(connect ECONNREFUSED`),
    )
  })
})
