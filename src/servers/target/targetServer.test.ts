// @vitest-environment node
import { request as httpRequest } from 'node:http'
import { ManifestSchema, RunStepSchema } from '../../protocol/schemas'
import { probeFactory, type ProbeStats } from '../../testing/probeTarget'
import { createTargetServer, type RunningTargetServer } from './targetServer'
import type { TargetServerOptions } from './targetHandler'

let running: RunningTargetServer[] = []
let stats: ProbeStats

async function serve(extra: Partial<TargetServerOptions> = {}): Promise<string> {
  const server = await createTargetServer({ create: probeFactory(stats), name: 'probe', concurrency: 2, ...extra }).listen(0)
  running.push(server)
  return server.url
}

async function call(url: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : null }
}

async function openSession(url: string): Promise<string> {
  const r = await call(url, 'POST', '/sessions', {})
  expect(r.status).toBe(201)
  return r.json.session_id
}

beforeEach(() => {
  stats = { created: 0, tornDown: 0 }
})
afterEach(async () => {
  await Promise.all(running.map((s) => s.close()))
  running = []
})

describe('target server: endpoints and statuses', () => {
  it('GET /manifest answers a valid manifest with the forest, surfaces and concurrency', async () => {
    const url = await serve({ tagDescriptions: { inbox: 'the inbox store' } })
    const r = await call(url, 'GET', '/manifest')
    expect(r.status).toBe(200)
    const m = ManifestSchema.parse(r.json)
    expect(m.protocol).toBe('superred-target-http/1')
    expect(m.security_domain.map((t) => t.name)).toEqual(['system', 'system_prompt', 'user', 'tools', 'inbox'])
    expect(m.security_domain[4]).toEqual({ name: 'inbox', parent: 'tools', description: 'the inbox store' })
    expect(m.controllables.map((c) => [c.name, c.security_domain])).toEqual([
      ['user_message', 'user'],
      ['inbox_email', 'inbox'],
    ])
    expect(m.observables[0]).toMatchObject({ name: 'model_identity', content: 'probe-1' })
    expect(m.concurrency).toBe(2)
    // The manifest's probe instance is torn down, not leaked.
    expect(stats.tornDown).toBe(stats.created)
  })

  it('runs: pre-call pause, post-call pause with its answer, then finished; events in emit order', async () => {
    const url = await serve()
    const sid = await openSession(url)
    const first = RunStepSchema.parse((await call(url, 'POST', `/sessions/${sid}/runs`, {})).json)
    expect(first.status).toBe('paused')
    expect(first.events.map((e) => e.content)).toEqual(['run started'])
    expect(first.pause).toMatchObject({ type: 'ControllablePreCallEvent', controllable: 'user_message', request: 'hello?' })
    const rid = first.run_id
    const second = RunStepSchema.parse(
      (
        await call(url, 'POST', `/sessions/${sid}/runs/${rid}/responses`, {
          call_id: first.pause!.call_id,
          response: { type: 'ControllableInjection', value: 'INJECTED' },
        })
      ).json,
    )
    expect(second.pause).toMatchObject({ type: 'ControllablePostCallEvent', controllable: 'inbox_email', answer: 'one email' })
    expect(second.events[0].content).toEqual({ message: 'INJECTED' })
    expect(second.events[1]).toMatchObject({ observable: { name: 'trace', security_domain: 'system' }, security_domain: 'inbox' })
    const third = RunStepSchema.parse(
      (
        await call(url, 'POST', `/sessions/${sid}/runs/${rid}/responses`, {
          call_id: second.pause!.call_id,
          response: { type: 'ControllableNoInjection', declined_by: 'scope' },
        })
      ).json,
    )
    expect(third).toMatchObject({ status: 'finished', pause: null, error: null })
    expect(third.events.map((e) => e.content)).toEqual(['done'])
    expect((await call(url, 'POST', `/sessions/${sid}/query`, { name: 'injections', params: {} })).json).toEqual({ value: '["INJECTED"]' })
  })

  it('409 not_pending for a call that is not the pending one, a wrong run, or a finished run', async () => {
    const url = await serve()
    const sid = await openSession(url)
    const step = (await call(url, 'POST', `/sessions/${sid}/runs`, {})).json
    const respond = (rid: string, callId: string) =>
      call(url, 'POST', `/sessions/${sid}/runs/${rid}/responses`, { call_id: callId, response: { type: 'ControllableNoInjection' } })
    const wrongCall = await respond(step.run_id, 'c999')
    expect(wrongCall.status).toBe(409)
    expect(wrongCall.json.error.code).toBe('not_pending')
    expect((await respond('r42', step.pause.call_id)).json.error.code).toBe('not_pending')
    const next = (await respond(step.run_id, step.pause.call_id)).json
    expect((await respond(step.run_id, step.pause.call_id)).status).toBe(409)
    await respond(step.run_id, next.pause.call_id)
    expect((await respond(step.run_id, next.pause.call_id)).json.error.code).toBe('not_pending')
  })

  it('a target that raises ends the run as failed with its error', async () => {
    const url = await serve()
    const sid = await openSession(url)
    expect((await call(url, 'POST', `/sessions/${sid}/config`, { name: 'mode', value: 'fail' })).status).toBe(204)
    const step = (await call(url, 'POST', `/sessions/${sid}/runs`, {})).json
    const end = RunStepSchema.parse(
      (
        await call(url, 'POST', `/sessions/${sid}/runs/${step.run_id}/responses`, {
          call_id: step.pause.call_id,
          response: { type: 'ControllableNoInjection' },
        })
      ).json,
    )
    expect(end.status).toBe('failed')
    expect(end.error).toBe('Error: the probe failed on purpose')
  })

  it('config: 204, 422 unknown_config, 422 invalid_config; query: 422 unknown_query; reset 204', async () => {
    const url = await serve()
    const sid = await openSession(url)
    expect((await call(url, 'POST', `/sessions/${sid}/config`, { name: 'mode', value: 'ok' })).status).toBe(204)
    const unknown = await call(url, 'POST', `/sessions/${sid}/config`, { name: 'nope', value: 'x' })
    expect([unknown.status, unknown.json.error.code]).toEqual([422, 'unknown_config'])
    const invalid = await call(url, 'POST', `/sessions/${sid}/config`, { name: 'mode', value: 'sideways' })
    expect([invalid.status, invalid.json.error.code]).toEqual([422, 'invalid_config'])
    expect(invalid.json.error.message).toContain("got 'sideways'")
    const q = await call(url, 'POST', `/sessions/${sid}/query`, { name: 'nope' })
    expect([q.status, q.json.error.code]).toEqual([422, 'unknown_query'])
    expect((await call(url, 'POST', `/sessions/${sid}/reset`, {})).status).toBe(204)
  })

  it('400 bad_request for a body that is not JSON or misses a field; 404 not_found; 405', async () => {
    const url = await serve()
    const sid = await openSession(url)
    const notJson = await call(url, 'POST', `/sessions/${sid}/config`, '{oops')
    expect([notJson.status, notJson.json.error.code]).toEqual([400, 'bad_request'])
    const missing = await call(url, 'POST', `/sessions/${sid}/config`, { value: 'x' })
    expect(missing.status).toBe(400)
    expect(missing.json.error.message).toContain('name')
    expect((await call(url, 'GET', '/nowhere')).json.error.code).toBe('not_found')
    expect((await call(url, 'POST', '/manifest', {})).status).toBe(405)
  })

  it('a malformed %-escape in the path is a 400 naming it, and the server goes on serving (it used to crash the process)', async () => {
    const url = await serve()
    const sid = await openSession(url)
    const bad = await call(url, 'POST', `/sessions/${sid}/runs/%E0%A4%A/responses`, {
      call_id: 'c1',
      response: { type: 'ControllableNoInjection', declined_by: 'scope' },
    })
    expect([bad.status, bad.json.error.code]).toEqual([400, 'bad_request'])
    expect(bad.json.error.message).toContain('malformed %-escape')
    // Escapes that decode stay decoded: an encoded session id still finds its session.
    expect((await call(url, 'POST', `/sessions/${encodeURIComponent(sid)}/reset?x=1`, {})).status).toBe(204)
    expect((await call(url, 'GET', '/manifest')).status).toBe(200)
  })

  it('DELETE answers 204, also for unknown sessions; then every path of it is 404 unknown_session', async () => {
    const url = await serve()
    const sid = await openSession(url)
    expect((await call(url, 'DELETE', `/sessions/${sid}`)).status).toBe(204)
    expect((await call(url, 'DELETE', `/sessions/${sid}`)).status).toBe(204)
    expect((await call(url, 'DELETE', '/sessions/never-was')).status).toBe(204)
    for (const [path, body] of [
      ['config', { name: 'mode', value: 'ok' }],
      ['runs', {}],
      ['query', { name: 'injections' }],
      ['reset', {}],
      ['runs/r1/responses', { call_id: 'c1', response: { type: 'ControllableNoInjection' } }],
    ] as const) {
      const r = await call(url, 'POST', `/sessions/${sid}/${path}`, body)
      expect([r.status, r.json.error.code]).toEqual([404, 'unknown_session'])
    }
    expect(stats.tornDown).toBe(stats.created)
  })

  it('503 capacity with Retry-After when concurrency sessions are open; a slot frees on DELETE', async () => {
    const url = await serve({ concurrency: 2, retryAfterSeconds: 3 })
    const a = await openSession(url)
    await openSession(url)
    const full = await call(url, 'POST', '/sessions', {})
    expect([full.status, full.json.error.code, full.headers.get('retry-after')]).toEqual([503, 'capacity', '3'])
    await call(url, 'DELETE', `/sessions/${a}`)
    expect((await call(url, 'POST', '/sessions', {})).status).toBe(201)
  })

  it('a paused run that is never answered does not block other sessions', async () => {
    const url = await serve()
    const stuck = await openSession(url)
    expect((await call(url, 'POST', `/sessions/${stuck}/runs`, {})).json.status).toBe('paused')
    const other = await openSession(url)
    let step = (await call(url, 'POST', `/sessions/${other}/runs`, {})).json
    while (step.status === 'paused') {
      step = (
        await call(url, 'POST', `/sessions/${other}/runs/${step.run_id}/responses`, {
          call_id: step.pause.call_id,
          response: { type: 'ControllableNoInjection' },
        })
      ).json
    }
    expect(step.status).toBe('finished')
  })
})

describe('target server: CORS, token, expiry', () => {
  it('answers preflights from loopback origins (Authorization allowed) and not from others', async () => {
    const url = await serve()
    const pre = await fetch(`${url}/sessions`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization,content-type',
      },
    })
    expect(pre.status).toBe(204)
    expect(pre.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
    expect(pre.headers.get('access-control-allow-headers')).toContain('authorization')
    expect(pre.headers.get('access-control-allow-methods')).toContain('DELETE')
    const evil = await fetch(`${url}/sessions`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' },
    })
    expect(evil.headers.get('access-control-allow-origin')).toBeNull()
    const get = await fetch(`${url}/manifest`, { headers: { Origin: 'http://127.0.0.1:4173' } })
    expect(get.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:4173')
    expect(
      (await fetch(`${url}/manifest`, { headers: { Origin: 'https://evil.example' } })).headers.get('access-control-allow-origin'),
    ).toBeNull()
  })

  it('every answer (JSON, 204, error, preflight) says Vary: Origin; errors keep their own headers', async () => {
    // The answers write their headers in one writeHead (the cheap path of node:http): none may be lost on the way.
    const url = await serve({ token: 't0ken-1', concurrency: 1 })
    const auth = { Authorization: 'Bearer t0ken-1' }
    const json = await call(url, 'GET', '/manifest', undefined, auth)
    expect([json.status, json.headers.get('vary'), json.headers.get('content-type')]).toEqual([
      200,
      'Origin',
      'application/json; charset=utf-8',
    ])
    const sid = (await call(url, 'POST', '/sessions', {}, auth)).json.session_id
    const none = await call(url, 'POST', `/sessions/${sid}/reset`, {}, auth)
    expect([none.status, none.headers.get('vary')]).toEqual([204, 'Origin'])
    const full = await call(url, 'POST', '/sessions', {}, auth)
    expect([full.status, full.headers.get('vary'), full.headers.get('retry-after'), full.json.error.code]).toEqual([
      503,
      'Origin',
      '1',
      'capacity',
    ])
    const denied = await call(url, 'GET', '/manifest', undefined, { Origin: 'http://localhost:5173' })
    expect([denied.status, denied.headers.get('vary'), denied.headers.get('www-authenticate')]).toEqual([401, 'Origin', 'Bearer'])
    expect(denied.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
    const pre = await fetch(`${url}/manifest`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET' },
    })
    expect([pre.status, pre.headers.get('vary')]).toEqual([204, 'Origin'])
  })

  it('allows exactly the configured origins when given', async () => {
    const url = await serve({ allowedOrigins: ['https://app.example'] })
    const ok = await fetch(`${url}/manifest`, { headers: { Origin: 'https://app.example' } })
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example')
    const loop = await fetch(`${url}/manifest`, { headers: { Origin: 'http://localhost:5173' } })
    expect(loop.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('with a token: 401 unauthorized without it or with a wrong one; preflights need none', async () => {
    const url = await serve({ token: 's3cret-token' })
    const none = await call(url, 'GET', '/manifest')
    expect([none.status, none.json.error.code]).toEqual([401, 'unauthorized'])
    expect(none.json.error.message).not.toContain('s3cret')
    expect((await call(url, 'GET', '/manifest', undefined, { Authorization: 'Bearer wrong' })).status).toBe(401)
    expect((await call(url, 'GET', '/manifest', undefined, { Authorization: 'Bearer s3cret-token' })).status).toBe(200)
    const pre = await fetch(`${url}/manifest`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://localhost:1', 'Access-Control-Request-Method': 'GET' },
    })
    expect(pre.status).toBe(204)
  })

  it('idle sessions expire: 404 unknown_session, the target torn down, its slot freed', async () => {
    const url = await serve({ idleTimeoutMs: 150, concurrency: 1 })
    const sid = await openSession(url)
    await call(url, 'POST', `/sessions/${sid}/runs`, {})
    await new Promise((r) => setTimeout(r, 400))
    const r = await call(url, 'POST', `/sessions/${sid}/reset`, {})
    expect([r.status, r.json.error.code]).toEqual([404, 'unknown_session'])
    expect(stats.tornDown).toBe(stats.created)
    expect((await call(url, 'POST', '/sessions', {})).status).toBe(201)
  })

  it('a request keeps a session alive', async () => {
    const url = await serve({ idleTimeoutMs: 300 })
    const sid = await openSession(url)
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 150))
      expect((await call(url, 'POST', `/sessions/${sid}/reset`, {})).status).toBe(204)
    }
  })
})

describe('target server: Host check (DNS rebinding)', () => {
  const withHost = (url: string, host: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const u = new URL(`${url}/manifest`)
      const req = httpRequest({ hostname: u.hostname, port: u.port, path: u.pathname, headers: { Host: host } }, (res) => {
        let body = ''
        res.on('data', (c: Buffer) => (body += c.toString()))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      })
      req.on('error', reject)
      req.end()
    })

  it('wrong tokens: ten, then 429 too_many_attempts with Retry-After, the token unread; a missing one is no guess', async () => {
    const url = await serve({ token: 'right-token-1234' })
    for (let i = 0; i < 12; i++) expect((await call(url, 'GET', '/manifest')).status).toBe(401)
    for (let i = 0; i < 10; i++)
      expect((await call(url, 'GET', '/manifest', undefined, { Authorization: `Bearer guess-${i}` })).status).toBe(401)
    const locked = await call(url, 'GET', '/manifest', undefined, { Authorization: 'Bearer guess-10' })
    expect([locked.status, locked.json.error.code, locked.headers.get('retry-after')]).toEqual([429, 'too_many_attempts', '1'])
    // Even the right token waits its turn: a guess and the token look alike until read.
    expect((await call(url, 'GET', '/manifest', undefined, { Authorization: 'Bearer right-token-1234' })).status).toBe(429)
  })

  it('answers loopback names, refuses others with 403 forbidden_host, unless listed', async () => {
    const url = await serve()
    expect((await withHost(url, 'localhost:8801')).status).toBe(200)
    expect((await withHost(url, '[::1]:8801')).status).toBe(200)
    const evil = await withHost(url, 'rebind.evil.example:8801')
    expect(evil.status).toBe(403)
    expect(JSON.parse(evil.body).error.code).toBe('forbidden_host')
    // The server remembers the last Host it allowed (a session sends one Host throughout): that memory admits no other.
    expect((await withHost(url, 'localhost:8801')).status).toBe(200)
    expect((await withHost(url, 'rebind.evil.example:8801')).status).toBe(403)
    const listed = await serve({ allowedHosts: ['.lab.example'] })
    expect((await withHost(listed, 'box.lab.example')).status).toBe(200)
    expect((await withHost(listed, 'evil.example')).status).toBe(403)
  })
})
