// @vitest-environment node
/**
 * One conformance suite, two servers: the TypeScript server library serving
 * the probe target (src/testing/probeTarget.ts) and the Python bridge
 * (`redscope-bridge serve`) serving its twin (redscope_bridge.testing.probe_target).
 * Every endpoint, every error code, pauses, capacity, expiry, body limit,
 * token, Host check and CORS must answer alike. Answers are parsed with the
 * same zod schemas the client uses.
 */
import { request as httpRequest } from 'node:http'
import { createTargetServer } from '../servers/target'
import { probeFactory } from '../testing/probeTarget'
import { pythonBridgeAvailable, spawnBridge } from '../testing/pythonBridge'
import { ErrorBodySchema, ManifestSchema, RunStepSchema, SessionCreatedSchema, SessionObservablesSchema } from './schemas'

const TOKEN = 'conformance-token-5f2c'
const AUTH = { Authorization: `Bearer ${TOKEN}` }

interface Servers {
  /** concurrency 2, token required */
  main: string
  /** concurrency 1, idle sessions expire after 1 s, no token */
  expiring: string
  close(): Promise<void>
}

async function typescriptServers(): Promise<Servers> {
  const main = await createTargetServer({ create: probeFactory(), name: 'ProbeTarget', concurrency: 2, token: TOKEN }).listen(0)
  const expiring = await createTargetServer({ create: probeFactory(), name: 'ProbeTarget', concurrency: 1, idleTimeoutMs: 1000 }).listen(0)
  return {
    main: main.url,
    expiring: expiring.url,
    close: async () => {
      await main.close()
      await expiring.close()
    },
  }
}

async function pythonServers(): Promise<Servers> {
  const spec = 'redscope_bridge.testing.probe_target:ProbeTarget'
  const [main, expiring] = await Promise.all([
    spawnBridge(spec, ['--concurrency', '2', '--token-env', 'CONFORMANCE_TOKEN'], { CONFORMANCE_TOKEN: TOKEN }),
    spawnBridge(spec, ['--concurrency', '1', '--idle-timeout', '1']),
  ])
  return {
    main: main.url,
    expiring: expiring.url,
    close: async () => {
      await main.close()
      await expiring.close()
    },
  }
}

const python = pythonBridgeAvailable()
const kinds: Array<[string, () => Promise<Servers>]> = [['TypeScript server', typescriptServers]]
if (python) kinds.push(['Python bridge', pythonServers])
else console.warn('conformance: .venv/bin/redscope-bridge not found, the Python bridge is NOT checked (bash scripts/test-all.sh makes it)')

async function call(url: string, method: string, path: string, body?: unknown, headers: Record<string, string> = AUTH) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : null }
}

function expectError(r: { status: number; json: unknown }, status: number, code: string, message?: RegExp) {
  expect(r.status).toBe(status)
  const body = ErrorBodySchema.parse(r.json)
  expect(body.error.code).toBe(code)
  if (message) expect(body.error.message).toMatch(message)
}

/** A raw request with a Host header of our choosing (fetch may not set Host). */
function rawGet(url: string, path: string, host: string): Promise<{ status: number; body: string }> {
  const u = new URL(url)
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: u.hostname, port: u.port, path, method: 'GET', headers: { host, ...AUTH } }, (res) => {
      let body = ''
      res.on('data', (d) => {
        body += d
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe.each(kinds)('Target-over-HTTP conformance: %s', (_kind, start) => {
  let servers: Servers
  const open: string[] = []
  beforeAll(async () => {
    servers = await start()
  }, 120_000)
  // Two Python processes stop one after the other; on a loaded machine each takes seconds to exit.
  afterAll(async () => {
    await servers?.close()
  }, 60_000)
  afterEach(async () => {
    for (const sid of open.splice(0)) await call(servers.main, 'DELETE', `/sessions/${sid}`)
  })
  const session = async () => {
    const r = await call(servers.main, 'POST', '/sessions', {})
    expect(r.status).toBe(201)
    const sid = SessionCreatedSchema.parse(r.json).session_id
    open.push(sid)
    return sid
  }

  it('GET /manifest: the forest in order, surfaces with content, config and query specs with params, concurrency', async () => {
    const r = await call(servers.main, 'GET', '/manifest')
    expect(r.status).toBe(200)
    const m = ManifestSchema.parse(r.json)
    expect(m.protocol).toBe('superred-target-http/1')
    expect(m.name).toBe('ProbeTarget')
    expect(m.security_domain.map((t) => [t.name, t.parent])).toEqual([
      ['system', null],
      ['system_prompt', 'system'],
      ['user', null],
      ['tools', null],
      ['inbox', 'tools'],
    ])
    expect(m.controllables).toEqual([
      { name: 'user_message', security_domain: 'user', description: "the user's message", value_type: 'text' },
      { name: 'inbox_email', security_domain: 'inbox', description: 'an email in the inbox', value_type: 'text' },
    ])
    expect(m.observables).toEqual([
      { name: 'model_identity', security_domain: 'system', description: 'which model', observable_type: 'text', content: 'probe-1' },
    ])
    expect(m.config_specs).toEqual([{ name: 'mode', security_domain: 'system', description: 'ok | fail | slow' }])
    expect(m.query_specs).toEqual([
      { name: 'injections', description: 'values injected in the last run', params: [] },
      { name: 'lookup', description: 'a value by key', params: [{ name: 'key', description: 'which value' }] },
    ])
    expect(m.concurrency).toBe(2)
  })

  it('a run: pre-call pause with descriptor and ids, the injection, a post-call pause with its answer, finished; events in emit order', async () => {
    const sid = await session()
    const s1 = RunStepSchema.parse((await call(servers.main, 'POST', `/sessions/${sid}/runs`, {})).json)
    expect(s1.status).toBe('paused')
    expect(s1.events.map((e) => [e.observable.name, e.content])).toEqual([['echo', 'run started']])
    expect(s1.events[0].event_id).toMatch(/^[0-9a-f-]{36}$/)
    expect(s1.pause).toMatchObject({
      type: 'ControllablePreCallEvent',
      controllable: 'user_message',
      request: 'hello?',
      descriptor: { security_domain: 'user', description: "the user's message", value_type: 'text' },
    })
    expect(s1.pause!.event_id).toMatch(/^[0-9a-f-]{36}$/)
    expect(s1.pause!.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T/)
    const s2 = RunStepSchema.parse(
      (
        await call(servers.main, 'POST', `/sessions/${sid}/runs/${s1.run_id}/responses`, {
          call_id: s1.pause!.call_id,
          response: { type: 'ControllableInjection', value: 'INJECTED' },
        })
      ).json,
    )
    expect(s2.status).toBe('paused')
    expect(s2.events.map((e) => [e.observable.name, e.content, e.security_domain ?? null])).toEqual([
      ['echo', { message: 'INJECTED' }, null],
      ['trace', 'reading inbox', 'inbox'],
    ])
    expect(s2.pause).toMatchObject({
      type: 'ControllablePostCallEvent',
      controllable: 'inbox_email',
      request: 'read_inbox()',
      answer: 'one email',
    })
    const s3 = RunStepSchema.parse(
      (
        await call(servers.main, 'POST', `/sessions/${sid}/runs/${s1.run_id}/responses`, {
          call_id: s2.pause!.call_id,
          response: { type: 'ControllableNoInjection', declined_by: 'scope' },
        })
      ).json,
    )
    expect(s3).toMatchObject({ run_id: s1.run_id, status: 'finished', pause: null, error: null })
    expect(s3.events.map((e) => e.content)).toEqual(['done'])
    expect((await call(servers.main, 'POST', `/sessions/${sid}/query`, { name: 'injections', params: {} })).json).toEqual({
      value: '["INJECTED"]',
    })
    expect((await call(servers.main, 'POST', `/sessions/${sid}/reset`, {})).status).toBe(204)
    expect((await call(servers.main, 'POST', `/sessions/${sid}/query`, { name: 'injections' })).json).toEqual({ value: '[]' })
  })

  it('a target that raises ends its run failed with its message; the session and the server carry on', async () => {
    const sid = await session()
    expect((await call(servers.main, 'POST', `/sessions/${sid}/config`, { name: 'mode', value: 'fail' })).status).toBe(204)
    const s1 = RunStepSchema.parse((await call(servers.main, 'POST', `/sessions/${sid}/runs`, {})).json)
    const s2 = RunStepSchema.parse(
      (
        await call(servers.main, 'POST', `/sessions/${sid}/runs/${s1.run_id}/responses`, {
          call_id: s1.pause!.call_id,
          response: { type: 'ControllableNoInjection' },
        })
      ).json,
    )
    expect(s2.status).toBe('failed')
    expect(s2.error).toMatch(/the probe failed on purpose/)
    expect(s2.events.map((e) => e.content)).toEqual([{ message: null }])
    // A new run in the same session works.
    await call(servers.main, 'POST', `/sessions/${sid}/config`, { name: 'mode', value: 'ok' })
    expect(RunStepSchema.parse((await call(servers.main, 'POST', `/sessions/${sid}/runs`, {})).json).status).toBe('paused')
  })

  it('every error code: unknown_session, not_pending, bad_request, unknown/invalid_config, unknown_query, missing_param, not_found, method_not_allowed, run_active', async () => {
    const sid = await session()
    expectError(await call(servers.main, 'POST', '/sessions/nope/runs', {}), 404, 'unknown_session')
    expectError(await call(servers.main, 'POST', `/sessions/${sid}/config`, '{not json'), 400, 'bad_request', /JSON/)
    expectError(await call(servers.main, 'POST', `/sessions/${sid}/config`, { name: 'mode' }), 400, 'bad_request', /value/)
    expectError(await call(servers.main, 'POST', `/sessions/${sid}/config`, { name: 'nope', value: 'x' }), 422, 'unknown_config', /nope/)
    expectError(await call(servers.main, 'POST', `/sessions/${sid}/config`, { name: 'mode', value: 'loud' }), 422, 'invalid_config', /loud/)
    expectError(await call(servers.main, 'POST', `/sessions/${sid}/query`, { name: 'nope' }), 422, 'unknown_query', /nope/)
    expectError(await call(servers.main, 'POST', `/sessions/${sid}/query`, { name: 'lookup', params: {} }), 422, 'missing_param', /'key'/)
    expect((await call(servers.main, 'POST', `/sessions/${sid}/query`, { name: 'lookup', params: { key: 'k1' } })).json).toEqual({
      value: 'value of k1',
    })
    expectError(await call(servers.main, 'GET', '/nowhere'), 404, 'not_found')
    expectError(await call(servers.main, 'POST', '/manifest', {}), 405, 'method_not_allowed')
    expectError(await call(servers.main, 'GET', '/sessions'), 405, 'method_not_allowed')
    const s1 = RunStepSchema.parse((await call(servers.main, 'POST', `/sessions/${sid}/runs`, {})).json)
    expectError(await call(servers.main, 'POST', `/sessions/${sid}/runs`, {}), 409, 'run_active')
    expectError(
      await call(servers.main, 'POST', `/sessions/${sid}/runs/${s1.run_id}/responses`, {
        call_id: 'c999',
        response: { type: 'ControllableNoInjection' },
      }),
      409,
      'not_pending',
    )
    expectError(
      await call(servers.main, 'POST', `/sessions/${sid}/runs/r999/responses`, {
        call_id: s1.pause!.call_id,
        response: { type: 'ControllableNoInjection' },
      }),
      409,
      'not_pending',
    )
    expectError(
      await call(servers.main, 'POST', `/sessions/${sid}/runs/${s1.run_id}/responses`, {
        call_id: s1.pause!.call_id,
        response: { type: 'Shout' },
      }),
      400,
      'bad_request',
    )
  })

  it('body limit: over 1 MiB is 413 payload_too_large; DELETE of an unknown session is 204', async () => {
    const sid = await session()
    expectError(
      await call(servers.main, 'POST', `/sessions/${sid}/config`, { name: 'mode', value: 'x'.repeat(1_100_000) }),
      413,
      'payload_too_large',
    )
    expect((await call(servers.main, 'DELETE', '/sessions/never-was')).status).toBe(204)
  })

  it("GET /sessions/{sid}/observables: the session's static observables now (config may change them)", async () => {
    const sid = await session()
    const r = await call(servers.main, 'GET', `/sessions/${sid}/observables`)
    expect(r.status).toBe(200)
    expect(SessionObservablesSchema.parse(r.json).observables).toEqual([
      { name: 'model_identity', security_domain: 'system', description: 'which model', observable_type: 'text', content: 'probe-1' },
    ])
    expectError(await call(servers.main, 'POST', `/sessions/${sid}/observables`, {}), 405, 'method_not_allowed')
    expectError(await call(servers.main, 'GET', '/sessions/nope/observables'), 404, 'unknown_session')
  })

  it('capacity: past concurrency sessions a 503 capacity with Retry-After; a deleted session frees its slot', async () => {
    const a = await session()
    await session()
    const full = await call(servers.main, 'POST', '/sessions', {})
    expectError(full, 503, 'capacity')
    expect(Number(full.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect((await call(servers.main, 'DELETE', `/sessions/${a}`)).status).toBe(204)
    open.splice(open.indexOf(a), 1)
    await session()
  })

  it('a paused run never blocks another session, and reset stops a paused run', async () => {
    const a = await session()
    const b = await session()
    const pa = RunStepSchema.parse((await call(servers.main, 'POST', `/sessions/${a}/runs`, {})).json)
    expect(pa.status).toBe('paused')
    const pb = RunStepSchema.parse((await call(servers.main, 'POST', `/sessions/${b}/runs`, {})).json)
    const done1 = RunStepSchema.parse(
      (
        await call(servers.main, 'POST', `/sessions/${b}/runs/${pb.run_id}/responses`, {
          call_id: pb.pause!.call_id,
          response: { type: 'ControllableNoInjection' },
        })
      ).json,
    )
    const done2 = RunStepSchema.parse(
      (
        await call(servers.main, 'POST', `/sessions/${b}/runs/${pb.run_id}/responses`, {
          call_id: done1.pause!.call_id,
          response: { type: 'ControllableNoInjection' },
        })
      ).json,
    )
    expect(done2.status).toBe('finished')
    expect((await call(servers.main, 'POST', `/sessions/${a}/reset`, {})).status).toBe(204)
    expectError(
      await call(servers.main, 'POST', `/sessions/${a}/runs/${pa.run_id}/responses`, {
        call_id: pa.pause!.call_id,
        response: { type: 'ControllableNoInjection' },
      }),
      409,
      'not_pending',
    )
    expect(RunStepSchema.parse((await call(servers.main, 'POST', `/sessions/${a}/runs`, {})).json).status).toBe('paused')
  })

  it('token: 401 unauthorized with WWW-Authenticate when missing or wrong; preflights need none', async () => {
    const none = await call(servers.main, 'GET', '/manifest', undefined, {})
    expectError(none, 401, 'unauthorized')
    expect(none.headers.get('www-authenticate')).toBe('Bearer')
    expectError(await call(servers.main, 'GET', '/manifest', undefined, { Authorization: 'Bearer wrong' }), 401, 'unauthorized')
    expect(JSON.stringify(none.json)).not.toContain(TOKEN)
    const pre = await fetch(`${servers.main}/sessions`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://127.0.0.1:5173', 'Access-Control-Request-Method': 'POST' },
    })
    expect(pre.status).toBe(204)
    expect(pre.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5173')
    expect(pre.headers.get('access-control-allow-headers')).toBe('authorization, content-type')
    const hostile = await fetch(`${servers.main}/sessions`, { method: 'OPTIONS', headers: { Origin: 'https://evil.example' } })
    expect(hostile.status).toBe(204)
    expect(hostile.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('a page on another origin changes nothing: its requests are 403 forbidden_origin, a non-JSON body 415, before any effect', async () => {
    // A "simple" cross-origin request needs no preflight: the browser sends it, only the answer is hidden from the page.
    const evil = { Origin: 'https://evil.example', 'Content-Type': 'text/plain' }
    for (let i = 0; i < 3; i++) {
      const r = await fetch(`${servers.expiring}/sessions`, { method: 'POST', headers: evil, body: '{}' })
      expectError({ status: r.status, json: await r.json() }, 403, 'forbidden_origin', /origin "https:\/\/evil\.example" is not allowed/)
    }
    // Without a body and with a JSON type, the origin alone refuses it; GETs too (nothing of the target is read).
    expectError(await call(servers.expiring, 'POST', '/sessions', undefined, { Origin: 'null' }), 403, 'forbidden_origin')
    expectError(
      await call(servers.main, 'GET', '/manifest', undefined, { ...AUTH, Origin: 'https://evil.example' }),
      403,
      'forbidden_origin',
    )
    // A text/plain or form body is refused even without an Origin (a client that is not a browser must say JSON).
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const r = await fetch(`${servers.expiring}/sessions`, { method: 'POST', headers: { 'Content-Type': type }, body: '{}' })
      expectError({ status: r.status, json: await r.json() }, 415, 'unsupported_media_type', /Content-Type: application\/json/)
    }
    // The one slot of the expiring server is still free: the next real client (an allowed origin, JSON) gets it.
    const real = await call(servers.expiring, 'POST', '/sessions', {}, { Origin: 'http://127.0.0.1:5173' })
    expect(real.status).toBe(201)
    expect(real.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5173')
    // A JSON type with parameters is JSON; an empty body needs no type at all.
    const plain = await fetch(`${servers.main}/sessions`, {
      method: 'POST',
      headers: { ...AUTH, 'Content-Type': 'application/json; charset=utf-8' },
      body: '{}',
    })
    expect(plain.status).toBe(201)
    open.push(SessionCreatedSchema.parse(await plain.json()).session_id)
    const bare = await fetch(`${servers.main}/sessions`, { method: 'POST', headers: AUTH })
    expect(bare.status).toBe(201)
    open.push(SessionCreatedSchema.parse(await bare.json()).session_id)
    await call(servers.expiring, 'DELETE', `/sessions/${real.json.session_id}`, undefined, {})
  })

  it('JSON nested deeper than 1,000 levels is 400 bad_request, unparsed, however short', async () => {
    const sid = await session()
    for (const depth of [1_001, 5_000, 400_000]) {
      const value = `${'['.repeat(depth)}${']'.repeat(depth)}`
      const r = await call(servers.main, 'POST', `/sessions/${sid}/config`, `{"name": "mode", "value": ${value}}`)
      expectError(r, 400, 'bad_request', /nested deeper than 1,000 levels/)
    }
    // Within the limit: still a 400 (the wrong shape, or too deep for Python's decoder), never a 500.
    const near = await call(
      servers.main,
      'POST',
      `/sessions/${sid}/config`,
      `{"name": "mode", "value": ${'['.repeat(998)}${']'.repeat(998)}}`,
    )
    expectError(near, 400, 'bad_request')
  })

  it('Host check: a non-loopback Host is 403 forbidden_host (DNS rebinding)', async () => {
    const bad = await rawGet(servers.main, '/manifest', 'rebind.evil.example:80')
    expect(bad.status).toBe(403)
    expect(JSON.parse(bad.body).error.code).toBe('forbidden_host')
    expect((await rawGet(servers.main, '/manifest', 'localhost:1')).status).toBe(200)
  })

  it('expiry: an idle session is torn down, answers 404 unknown_session, and frees its slot', async () => {
    const r = await call(servers.expiring, 'POST', '/sessions', {}, {})
    const sid = SessionCreatedSchema.parse(r.json).session_id
    expect(RunStepSchema.parse((await call(servers.expiring, 'POST', `/sessions/${sid}/runs`, {}, {})).json).status).toBe('paused')
    expectError(await call(servers.expiring, 'POST', '/sessions', {}, {}), 503, 'capacity')
    await new Promise((resolve) => setTimeout(resolve, 2500))
    expectError(await call(servers.expiring, 'POST', `/sessions/${sid}/runs`, {}, {}), 404, 'unknown_session')
    const again = await call(servers.expiring, 'POST', '/sessions', {}, {})
    expect(again.status).toBe(201)
    await call(servers.expiring, 'DELETE', `/sessions/${again.json.session_id}`, undefined, {})
  })
})
