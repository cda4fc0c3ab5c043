// @vitest-environment node
/**
 * The Optimizer-over-HTTP conformance suite, against the Python bridge
 * (`redscope-bridge serve --optimizer ...`) serving the probe optimizer
 * (redscope_bridge.testing.probe_optimizer), which answers each pre-call with
 * an account of what reached it. Every endpoint and error code, the view as
 * the optimizer sees it, usage and the LLM's replies, capacity, expiry, body
 * limit, token, Host check and CORS. Answers are parsed with the zod schemas
 * the client uses.
 */
import { randomUUID } from 'node:crypto'
import { request as httpRequest } from 'node:http'
import { pythonBridgeAvailable, spawnBridgeOptimizers, spawnVenv, type SpawnedServer } from '../../testing/pythonBridge'
import { ErrorBodySchema } from '../schemas'
import {
  EventAnswerSchema,
  KwargsAnswerSchema,
  OptimizerManifestSchema,
  SessionClosedSchema,
  SessionOpenedSchema,
  type EventBody,
  type OpenSessionBody,
} from './schemas'

const TOKEN = 'optimizer-conformance-7d1e'
const AUTH = { Authorization: `Bearer ${TOKEN}` }
const PROBE = 'redscope_bridge.testing.probe_optimizer:ProbeOptimizer'
const TIME = '2026-01-02T03:04:05.000006'

const FOREST = [
  { name: 'system', parent: null },
  { name: 'system_prompt', parent: 'system' },
  { name: 'user', parent: null },
  { name: 'tools', parent: null },
  { name: 'inbox', parent: 'tools' },
]
const USER_MESSAGE = { name: 'user_message', security_domain: 'user', description: "the user's message", value_type: 'text' }
const INBOX = { name: 'inbox_email', security_domain: 'inbox', description: 'an email', value_type: 'text' }

function openBody(optimizer: string, extra: Partial<OpenSessionBody> = {}): OpenSessionBody {
  return {
    optimizer,
    goal: { description: 'Reveal the passphrase' },
    security_domain: FOREST,
    controllables: [USER_MESSAGE],
    observables: [
      { name: 'model_identity', security_domain: 'system', description: 'which model', observable_type: 'text', content: 'probe-1' },
      { name: 'inbox_email', security_domain: 'inbox', description: 'an email', observable_type: 'text', content: null },
    ],
    ...extra,
  }
}

const runStart = (): EventBody => ({ event: { type: 'RunStartEvent', event_id: randomUUID(), timestamp: TIME } })
const preCall = (id: string, request = 'hello?', controllable = USER_MESSAGE) => ({
  type: 'ControllablePreCallEvent' as const,
  event_id: id,
  timestamp: TIME,
  security_domain: controllable.security_domain,
  controllable,
  request,
})
const observation = (name: string, tag: string, content: unknown) => ({
  type: 'ObservableEvent' as const,
  event_id: randomUUID(),
  timestamp: TIME,
  security_domain: tag,
  observable: { name, security_domain: tag, description: '', observable_type: 'text' },
  content,
})
const runEnd = (success: boolean) => ({
  type: 'RunEndEvent' as const,
  event_id: randomUUID(),
  timestamp: TIME,
  security_domain: 'user',
  evaluation: {
    success,
    primary_score: { name: 'primary', value: success ? 1 : 0, security_domain: null },
    sub_scores: {},
    rationale: 'judged',
  },
})

interface Bridges {
  main: SpawnedServer
  expiring: SpawnedServer
  llm: SpawnedServer
}

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
  expect(r.status, JSON.stringify(r.json)).toBe(status)
  const body = ErrorBodySchema.parse(r.json)
  expect(body.error.code).toBe(code)
  if (message) expect(body.error.message).toMatch(message)
}

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

const python = pythonBridgeAvailable()
if (!python)
  console.warn('optimizer conformance: .venv/bin/redscope-bridge not found, the suite is NOT run (bash scripts/test-all.sh makes it)')

describe.runIf(python)('Optimizer-over-HTTP conformance: the Python bridge', () => {
  let b: Bridges
  const open: string[] = []
  beforeAll(async () => {
    const llm = await spawnVenv('python', ['-m', 'redscope_bridge.testing.fake_llm', '--port', '0'], /fake LLM at (http:\/\/\S+\/v1)/)
    const [main, expiring] = await Promise.all([
      spawnBridgeOptimizers(
        [
          '--optimizer',
          `probe=${PROBE}`,
          '--optimizer-kwargs',
          '{"runs": 2}',
          '--optimizer',
          `llm=${PROBE}`,
          '--optimizer-kwargs',
          '{"llm": true, "runs": 3}',
          '--optimizer',
          `failing=${PROBE}`,
          '--optimizer',
          `slow=${PROBE}`,
          '--optimizer-kwargs',
          '{"sleep_s": 2}',
          '--llm-model',
          'openai/gpt-4o-mini',
          '--llm-api-base',
          llm.url,
          '--optimizer-concurrency',
          '3',
          '--token-env',
          'CONFORMANCE_TOKEN',
        ],
        { CONFORMANCE_TOKEN: TOKEN, OPENAI_API_KEY: 'sk-fake' },
      ),
      spawnBridgeOptimizers(['--optimizer', `probe=${PROBE}`, '--optimizer-concurrency', '1', '--idle-timeout', '1']),
    ])
    b = { main, expiring, llm }
  }, 180_000)
  afterAll(async () => {
    await Promise.all([b?.main.close(), b?.expiring.close(), b?.llm.close()])
  }, 60_000)
  afterEach(async () => {
    for (const sid of open.splice(0)) await call(b.main.url, 'DELETE', `/optimizer-sessions/${sid}`)
  })
  const session = async (optimizer: string, extra: Partial<OpenSessionBody> = {}) => {
    const r = await call(b.main.url, 'POST', '/optimizer-sessions', openBody(optimizer, extra))
    expect(r.status, JSON.stringify(r.json)).toBe(201)
    const sid = SessionOpenedSchema.parse(r.json).session_id
    open.push(sid)
    return sid
  }
  const event = async (sid: string, body: EventBody) => call(b.main.url, 'POST', `/optimizer-sessions/${sid}/events`, body)
  const answer = async (sid: string, body: EventBody) => {
    const r = await event(sid, body)
    expect(r.status, JSON.stringify(r.json)).toBe(200)
    return EventAnswerSchema.parse(r.json)
  }

  it('GET /optimizers: each optimizer with its ref, version, kwargs schema (the server kwargs as defaults), model; concurrency', async () => {
    const r = await call(b.main.url, 'GET', '/optimizers')
    expect(r.status).toBe(200)
    const m = OptimizerManifestSchema.parse(r.json)
    expect(m.protocol).toBe('superred-optimizer-http/1')
    expect(m.concurrency).toBe(3)
    expect(m.optimizers.map((o) => o.name)).toEqual(['probe', 'llm', 'failing', 'slow'])
    const probe = m.optimizers[0]
    expect(probe).toMatchObject({ ref: PROBE, kwargs: { runs: 2 }, llm: { model: 'openai/gpt-4o-mini' } })
    expect(probe.description).toMatch(/Injects its own account/)
    // Derived from the constructor's signature: keyword-only, typed, with defaults; unknown keywords refused.
    expect(probe.kwargs_schema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      properties: {
        runs: { type: 'integer', default: 2 },
        fail_on: { type: ['string', 'null'], default: null },
        sleep_s: { type: 'number', default: 0 },
      },
    })
    expectError(await call(b.main.url, 'GET', '/manifest'), 404, 'not_found', /serves no target/)
  })

  it('POST /optimizers/{name}/kwargs: the server kwargs under the given ones; the schema and the constructor refuse as a session would', async () => {
    const ok = await call(b.main.url, 'POST', '/optimizers/probe/kwargs', { kwargs: { sleep_s: 0.5 } })
    expect(ok.status).toBe(200)
    expect(KwargsAnswerSchema.parse(ok.json).kwargs).toEqual({ runs: 2, sleep_s: 0.5 })
    expectError(
      await call(b.main.url, 'POST', '/optimizers/probe/kwargs', { kwargs: { runs: 'two' } }),
      422,
      'invalid_kwargs',
      /runs: 'two' is not of type 'integer'/,
    )
    expectError(
      await call(b.main.url, 'POST', '/optimizers/probe/kwargs', { kwargs: { runs: 0 } }),
      422,
      'invalid_kwargs',
      /ValueError: runs must be at least 1/,
    )
    expectError(await call(b.main.url, 'POST', '/optimizers/probe/kwargs', { kwargs: { shout: true } }), 422, 'invalid_kwargs', /shout/)
    expectError(await call(b.main.url, 'POST', '/optimizers/nope/kwargs', {}), 422, 'unknown_optimizer', /probe, llm, failing, slow/)
  })

  it('a session: the offer, each event with the view it gained, responses naming their events, done only on the RunEnd answer', async () => {
    const sid = await session('probe')
    expect((await answer(sid, runStart())).response).toEqual({ type: 'EventResponse' })
    const pre = preCall(randomUUID())
    const said = observation('echo', 'user', 'run started')
    const first = await answer(sid, { trajectory: [said], event: pre })
    expect(first.response.type).toBe('ControllableInjection')
    const account = JSON.parse((first.response as { value: string }).value)
    expect(account.run).toBe(1)
    // The view holds what came before and the pre-call itself, with each tag's whole chain.
    expect(account.view).toEqual([
      ['ObservableEvent', 'echo', 'user', 'run started'],
      ['ControllablePreCallEvent', 'user_message', 'user', 'hello?'],
    ])
    expect(account.offered).toEqual({
      goal: 'Reveal the passphrase',
      controllables: [['user_message', 'user', "the user's message", 'text']],
      observables: [
        ['model_identity', 'system', 'probe-1'],
        ['inbox_email', 'tools/inbox', null],
      ],
    })
    // The answer joins the view (naming its event); a read-only pre-call the Controller declined itself, too.
    const inboxCall = preCall(randomUUID(), 'read_inbox()', INBOX)
    const second = await answer(sid, {
      trajectory: [
        { type: 'ControllableInjection', event_id: pre.event_id, value: 'INJECTED' },
        observation('reply', 'user', { text: 'no' }),
        inboxCall,
        { type: 'ControllableNoInjection', event_id: inboxCall.event_id, declined_by: 'scope' },
      ],
      event: preCall(randomUUID(), 'again?'),
    })
    const view = JSON.parse((second.response as { value: string }).value).view
    expect(view.slice(2)).toEqual([
      ['ControllableInjection', 'user_message', true, 'INJECTED'],
      ['ObservableEvent', 'reply', 'user', { text: 'no' }],
      ['ControllablePreCallEvent', 'inbox_email', 'tools/inbox', 'read_inbox()'],
      ['ControllableNoInjection', 'inbox_email', true, null],
      ['ControllablePreCallEvent', 'user_message', 'user', 'again?'],
    ])
    expect((await answer(sid, { event: preCall(randomUUID(), 'decline') })).response).toEqual({ type: 'ControllableNoInjection' })
    expect((await answer(sid, { event: runEnd(false) })).response).toEqual({ type: 'RunEndResponse', done: false })
    // Run 2 starts on an empty view; done once the probe's two runs are over.
    await answer(sid, runStart())
    const fresh = JSON.parse(((await answer(sid, { event: preCall(randomUUID()) })).response as { value: string }).value)
    expect(fresh).toMatchObject({ run: 2, view: [['ControllablePreCallEvent', 'user_message', 'user', 'hello?']] })
    const end = await answer(sid, { event: runEnd(true) })
    expect(end).toEqual({ response: { type: 'RunEndResponse', done: true }, usage: { calls: 0, cost: 0 }, llm_calls: [] })
    const closed = await call(b.main.url, 'DELETE', `/optimizer-sessions/${sid}`)
    open.splice(open.indexOf(sid), 1)
    expect(SessionClosedSchema.parse(closed.json)).toEqual({ usage: { calls: 0, cost: 0 }, error: null, llm_calls: [] })
    expectError(await event(sid, runStart()), 404, 'unknown_session')
    expectError(await call(b.main.url, 'DELETE', `/optimizer-sessions/${sid}`), 404, 'unknown_session')
  })

  it("the bridge's LLM: usage and the model's replies come back with the answer; the cap is the task's, enforced there", async () => {
    const sid = await session('llm', { task_cost_cap_usd: 1 })
    const a = await answer(sid, runStart())
    expect(a.usage.calls).toBe(1)
    expect(a.usage.cost).toBeGreaterThan(0)
    expect(a.llm_calls).toHaveLength(1)
    expect(a.llm_calls[0].reply).toMatch(/probe run 1/)
    expect(a.llm_calls[0].prompt_tokens).toBeGreaterThan(0)
    // A spent budget: superred's BudgetExhaustedError, then the session is failed.
    const broke = await session('llm', { task_cost_cap_usd: 0 })
    expectError(await event(broke, runStart()), 409, 'budget_exhausted', /Cost cap reached/)
    expectError(await event(broke, runStart()), 409, 'session_failed', /BudgetExhaustedError/)
  })

  it('an optimizer that raises: 500 optimizer_error with its message, then 409 session_failed; initialize and a late run failure too', async () => {
    const sid = await session('failing', { kwargs: { fail_on: 'RunEndEvent' } })
    await answer(sid, runStart())
    expectError(
      await event(sid, { event: runEnd(false) }),
      500,
      'optimizer_error',
      /RuntimeError: the probe optimizer failed on purpose in RunEndEvent/,
    )
    expectError(await event(sid, runStart()), 409, 'session_failed', /failed on purpose/)
    expectError(
      await call(b.main.url, 'POST', '/optimizer-sessions', openBody('failing', { kwargs: { fail_on: 'initialize' } })),
      500,
      'optimizer_error',
      /initialize raised RuntimeError: the probe optimizer failed on purpose in initialize/,
    )
    // Only goals that match fail_goal fail.
    const spared = await session('failing', { kwargs: { fail_on: 'RunStartEvent', fail_goal: 'other goal' } })
    expect((await answer(spared, runStart())).response.type).toBe('EventResponse')
    const late = await session('failing', { kwargs: { fail_on: 'after_close' } })
    const closed = await call(b.main.url, 'DELETE', `/optimizer-sessions/${late}`)
    open.splice(open.indexOf(late), 1)
    expect(SessionClosedSchema.parse(closed.json).error).toMatch(/RuntimeError: the probe optimizer failed on purpose in after_close/)
  })

  it("a response of the wrong type is superred's TypeError: 500 optimizer_error", async () => {
    const sid = await session('failing', { kwargs: { wrong_post: true } })
    await answer(sid, runStart())
    const post = { ...preCall(randomUUID()), type: 'ControllablePostCallEvent' as const, answer: 'hi' }
    expectError(
      await event(sid, { event: post }),
      500,
      'optimizer_error',
      /TypeError: ControllablePostCallEvent requires response of type ControllableInjection, ControllableNoInjection, got EventResponse/,
    )
  })

  it('bad requests: 400 bad_request, 409 no_run, 422 unknown_optimizer and invalid_kwargs, 404 and 405, 409 busy', async () => {
    expectError(await call(b.main.url, 'POST', '/optimizer-sessions', openBody('nope')), 422, 'unknown_optimizer')
    expectError(await call(b.main.url, 'POST', '/optimizer-sessions', openBody('probe', { kwargs: { runs: -1 } })), 422, 'invalid_kwargs')
    expectError(await call(b.main.url, 'POST', '/optimizer-sessions', { optimizer: 'probe' }), 400, 'bad_request', /goal/)
    expectError(
      await call(
        b.main.url,
        'POST',
        '/optimizer-sessions',
        openBody('probe', { controllables: [{ ...USER_MESSAGE, security_domain: 'nowhere' }] }),
      ),
      400,
      'bad_request',
      /tag 'nowhere'/,
    )
    expectError(await call(b.main.url, 'POST', '/optimizer-sessions', '{oops'), 400, 'bad_request', /JSON/)
    const sid = await session('probe')
    expectError(await event(sid, { event: preCall(randomUUID()) }), 409, 'no_run')
    await answer(sid, runStart())
    expectError(
      await event(sid, {
        trajectory: [{ type: 'ControllableInjection', event_id: randomUUID(), value: 'x' }],
        event: preCall(randomUUID()),
      }),
      400,
      'bad_request',
      /no earlier pre- or post-call of this run/,
    )
    expectError(await event(sid, { event: { type: 'Shout' } } as unknown as EventBody), 400, 'bad_request')
    // A tag first named in an event comes with its parent (security_domain), else it is refused.
    const newTag = { name: 'calendar', security_domain: 'calendar', description: '', value_type: 'text' }
    expectError(await event(sid, { event: preCall(randomUUID(), 'x', newTag) }), 400, 'bad_request', /'calendar'/)
    const added = await answer(sid, { security_domain: [{ name: 'calendar', parent: 'tools' }], event: preCall(randomUUID(), 'x', newTag) })
    expect(JSON.parse((added.response as { value: string }).value).view.at(-1)).toEqual([
      'ControllablePreCallEvent',
      'calendar',
      'tools/calendar',
      'x',
    ])
    expectError(await call(b.main.url, 'GET', '/optimizer-sessions'), 405, 'method_not_allowed')
    expectError(await call(b.main.url, 'GET', `/optimizer-sessions/${sid}/events`), 405, 'method_not_allowed')
    expectError(await call(b.main.url, 'GET', '/optimizers/probe/nothing'), 404, 'not_found')
    const slow = await session('slow')
    const pending = event(slow, runStart())
    await new Promise((resolve) => setTimeout(resolve, 300))
    expectError(await event(slow, runStart()), 409, 'busy')
    expect((await pending).status).toBe(200)
  })

  it('closing a session while the optimizer thinks answers that event 409 session_failed', async () => {
    const slow = await session('slow')
    const pending = event(slow, runStart())
    await new Promise((resolve) => setTimeout(resolve, 300))
    const closed = await call(b.main.url, 'DELETE', `/optimizer-sessions/${slow}`)
    open.splice(open.indexOf(slow), 1)
    expect(closed.status).toBe(200)
    expectError(await pending, 409, 'session_failed', /closed/)
  })

  it('capacity, body limit, token, CORS and the Host check, as the target protocol', async () => {
    await session('probe')
    await session('probe')
    await session('probe')
    const full = await call(b.main.url, 'POST', '/optimizer-sessions', openBody('probe'))
    expectError(full, 503, 'capacity')
    expect(Number(full.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expectError(
      await call(b.main.url, 'POST', '/optimizers/probe/kwargs', { kwargs: { fail_on: 'x'.repeat(1_100_000) } }),
      413,
      'payload_too_large',
    )
    const none = await call(b.main.url, 'GET', '/optimizers', undefined, {})
    expectError(none, 401, 'unauthorized')
    expect(none.headers.get('www-authenticate')).toBe('Bearer')
    const pre = await fetch(`${b.main.url}/optimizer-sessions`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST' },
    })
    expect(pre.status).toBe(204)
    expect(pre.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
    expect(pre.headers.get('access-control-allow-methods')).toBe('GET, POST, DELETE, OPTIONS')
    const hostile = await fetch(`${b.main.url}/optimizers`, { method: 'OPTIONS', headers: { Origin: 'https://evil.example' } })
    expect(hostile.headers.get('access-control-allow-origin')).toBeNull()
    const bad = await rawGet(b.main.url, '/optimizers', 'rebind.evil.example:80')
    expect(bad.status).toBe(403)
    expect(JSON.parse(bad.body).error.code).toBe('forbidden_host')
  })

  it('expiry: an idle session is closed, answers 404 unknown_session, and frees its slot', async () => {
    const url = b.expiring.url
    const r = await call(url, 'POST', '/optimizer-sessions', openBody('probe'), {})
    const sid = SessionOpenedSchema.parse(r.json).session_id
    expectError(await call(url, 'POST', '/optimizer-sessions', openBody('probe'), {}), 503, 'capacity')
    await new Promise((resolve) => setTimeout(resolve, 2500))
    expectError(await call(url, 'POST', `/optimizer-sessions/${sid}/events`, runStart(), {}), 404, 'unknown_session')
    const again = await call(url, 'POST', '/optimizer-sessions', openBody('probe'), {})
    expect(again.status).toBe(201)
    await call(url, 'DELETE', `/optimizer-sessions/${again.json.session_id}`, undefined, {})
  })
})
