// @vitest-environment node
/**
 * The OpenAI-compatible server's HTTP side on a scripted engine: what clients
 * see (the openai SDK, plain fetch, a browser's preflight), its hardening, its
 * queue and its seeds. The model itself is tested in realModel.test.ts.
 */
import { request as httpRequest } from 'node:http'
import OpenAI from 'openai'
import { scriptedChatEngine, type ScriptedChatEngine } from '../../testing/scriptedChatEngine'
import { llmRequestHeaderAllowed, SEED_HEADER, type LlmServerOptions } from './llmHandler'
import { listenLlmServer, type RunningLlmServer } from './llmServer'

let running: RunningLlmServer[] = []
afterEach(async () => {
  await Promise.all(running.map((s) => s.close()))
  running = []
})

async function serve(engine: ScriptedChatEngine, extra: Partial<LlmServerOptions> = {}): Promise<RunningLlmServer> {
  const server = await listenLlmServer({ engine, ...extra }, 0)
  running.push(server)
  return server
}

const user = (content: string) => [{ role: 'user' as const, content }]

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, headers: res.headers, text, json: text.startsWith('{') ? JSON.parse(text) : null }
}

/** A raw request, for headers fetch will not send (Host) or preflights. */
function raw(url: string, method: string, path: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { method, headers }, (res) => {
      let text = ''
      res.on('data', (c: Buffer) => (text += c.toString()))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

const expectOpenAiError = (json: unknown, type: string, code: string | null) => {
  expect(json).toMatchObject({ error: { type, code } })
  expect(typeof (json as { error: { message: string } }).error.message).toBe('string')
}

describe('serve-llm HTTP: what OpenAI clients see', () => {
  it('the openai SDK gets a completion with its usage, and the model is listed', async () => {
    const engine = scriptedChatEngine({ modelId: 'tiny', reply: () => 'one two three' })
    const { url } = await serve(engine)
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'unused', maxRetries: 0 })
    const r = await client.chat.completions.create({
      model: 'anything',
      messages: [{ role: 'system', content: 'be brief' }, ...user('hello there')],
    })
    expect(r.object).toBe('chat.completion')
    expect(r.model).toBe('tiny')
    expect(r.choices).toHaveLength(1)
    expect(r.choices[0].message).toMatchObject({ role: 'assistant', content: 'one two three' })
    expect(r.choices[0].finish_reason).toBe('stop')
    // The scripted engine counts words + 2 per message: (2 + 2) + (2 + 2); three answer words.
    expect(r.usage).toEqual({ prompt_tokens: 8, completion_tokens: 3, total_tokens: 11 })
    const models = await client.models.list()
    expect(models.data.map((m) => m.id)).toEqual(['tiny'])
    expect((await client.models.retrieve('tiny')).id).toBe('tiny')
    await expect(client.models.retrieve('gpt-4o')).rejects.toMatchObject({ status: 404, code: 'model_not_found' })
  })

  it('streams with the SDK: deltas add up to the answer, then finish_reason, the usage chunk and [DONE]', async () => {
    const engine = scriptedChatEngine({ reply: () => 'a b c d e f' })
    const { url } = await serve(engine)
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'unused', maxRetries: 0 })
    const stream = await client.chat.completions.create({
      model: 'm',
      messages: user('go'),
      max_tokens: 4,
      stream: true,
      stream_options: { include_usage: true },
    })
    let text = ''
    const finishes: Array<string | null> = []
    let usage
    for await (const chunk of stream) {
      if (chunk.usage) usage = chunk.usage
      for (const c of chunk.choices) {
        text += c.delta.content ?? ''
        finishes.push(c.finish_reason)
      }
    }
    expect(text).toBe('a b c d')
    expect(finishes.filter((f) => f !== null)).toEqual(['length'])
    expect(usage).toEqual({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 })
    // On the wire: SSE events, the last one [DONE].
    const res = await post(url, { messages: user('go'), stream: true })
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const events = res.text.split('\n\n').filter((e) => e !== '')
    expect(events.every((e) => e.startsWith('data: '))).toBe(true)
    expect(events.at(-1)).toBe('data: [DONE]')
    // Without include_usage no chunk carries usage.
    expect(
      events
        .slice(0, -1)
        .map((e) => JSON.parse(e.slice(6)))
        .some((c) => 'usage' in c),
    ).toBe(false)
  })

  it('honours temperature, top_p, max_tokens (or max_completion_tokens), stop and penalties; developer is a system message; text parts join', async () => {
    const engine = scriptedChatEngine({ reply: () => 'x y STOP z' })
    const { url } = await serve(engine)
    const r = await post(url, {
      model: 'm',
      temperature: 0.3,
      top_p: 0.9,
      max_completion_tokens: 7,
      stop: 'STOP',
      frequency_penalty: 0.5,
      presence_penalty: 0.25,
      messages: [
        { role: 'developer', content: 'rules' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'a ' },
            { type: 'text', text: 'b' },
          ],
        },
      ],
    })
    expect(r.status).toBe(200)
    expect(r.json.choices[0].message.content).toBe('x y')
    expect(engine.calls[0].request).toMatchObject({
      temperature: 0.3,
      topP: 0.9,
      maxTokens: 7,
      stop: ['STOP'],
      frequencyPenalty: 0.5,
      presencePenalty: 0.25,
      messages: [
        { role: 'system', content: 'rules' },
        { role: 'user', content: 'a b' },
      ],
    })
    // No temperature: OpenAI's default, 1.
    await post(url, { messages: user('hi') })
    expect(engine.calls[1].request.temperature).toBe(1)
  })

  it('--max-tokens caps every answer: a request asking for more, or for nothing, gets the cap; one asking for less keeps its own', async () => {
    const engine = scriptedChatEngine()
    const { url } = await serve(engine, { maxTokens: 32 })
    await post(url, { messages: user('a'), max_tokens: 600 })
    await post(url, { messages: user('b') })
    await post(url, { messages: user('c'), max_completion_tokens: 8 })
    expect(engine.calls.map((c) => c.request.maxTokens)).toEqual([32, 32, 8])
  })

  it('also answers at /chat/completions (clients given a base URL without /v1) and GET /health', async () => {
    const { url } = await serve(scriptedChatEngine({ slots: 3 }), { maxQueue: 5 })
    const r = await fetch(`${url}/chat/completions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ messages: user('x') }),
    })
    expect(r.status).toBe(200)
    const health = await (await fetch(`${url}/health`)).json()
    expect(health).toEqual({ status: 'ok', model: 'scripted', slots: 3, running: 0, waiting: 0, max_queue: 5 })
  })
})

describe('serve-llm HTTP: bad requests get OpenAI-shaped errors naming what and where', () => {
  it.each([
    ['not JSON', '{"messages": [', 400, 'invalid_request_error', null, /not JSON/],
    ['no messages', { model: 'm' }, 400, 'invalid_request_error', null, /messages/],
    ['an empty message list', { messages: [] }, 400, 'invalid_request_error', null, /at least one message/],
    [
      "a role that is none of OpenAI's",
      { messages: [{ role: 'wizard', content: 'x' }] },
      400,
      'invalid_request_error',
      null,
      /messages\[0\]\.role: role 'wizard'/,
    ],
    [
      'a tool message',
      { messages: [{ role: 'tool', content: 'x', tool_call_id: '1' }] },
      400,
      'invalid_request_error',
      null,
      /calls no tools/,
    ],
    [
      'tools',
      { messages: user('x'), tools: [{ type: 'function', function: { name: 'f' } }] },
      400,
      'invalid_request_error',
      null,
      /tools is not supported/,
    ],
    ['n = 2', { messages: user('x'), n: 2 }, 400, 'invalid_request_error', null, /one choice per request/],
    [
      'an image part',
      { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'x' } }] }] },
      400,
      'invalid_request_error',
      null,
      /image_url.*text only/,
    ],
    ['a temperature above 2', { messages: user('x'), temperature: 3 }, 400, 'invalid_request_error', null, /temperature/],
    ['a negative penalty', { messages: user('x'), presence_penalty: -1 }, 400, 'invalid_request_error', null, /between 0 and 1/],
    ['five stop strings', { messages: user('x'), stop: ['a', 'b', 'c', 'd', 'e'] }, 400, 'invalid_request_error', null, /stop/],
    [
      'a response format of no known type',
      { messages: user('x'), response_format: { type: 'xml' } },
      400,
      'invalid_request_error',
      null,
      /response_format.*json_schema/,
    ],
    [
      'a schema keyword the grammar cannot hold',
      {
        messages: user('x'),
        response_format: {
          type: 'json_schema',
          json_schema: { name: 'n', schema: { type: 'object', properties: { n: { type: 'number', minimum: 0 } } } },
        },
      },
      400,
      'invalid_request_error',
      null,
      /response_format\.json_schema\.schema\.properties\.n\.minimum: 'minimum' is a keyword this server cannot hold/,
    ],
    [
      'a body nested 40 deep',
      `{"messages": [{"role": "user", "content": "x"}], "metadata": ${'['.repeat(40)}${']'.repeat(40)}}`,
      400,
      'invalid_request_error',
      null,
      /deeper than 32/,
    ],
  ])('%s', async (_what, body, status, type, code, message) => {
    const { url } = await serve(scriptedChatEngine())
    const r = await post(url, body)
    expect(r.status).toBe(status)
    expectOpenAiError(r.json, type, code)
    expect(r.json.error.message).toMatch(message)
  })

  it('hands a JSON response format to the engine: any JSON, or the schema with anyOf spelt oneOf and titles dropped', async () => {
    const engine = scriptedChatEngine({ reply: () => '{}' })
    const { url } = await serve(engine)
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'unused', maxRetries: 0 })
    await client.chat.completions.create({ model: 'm', messages: user('x'), response_format: { type: 'json_object' } })
    await client.chat.completions.create({ model: 'm', messages: user('x'), response_format: { type: 'text' } })
    const schema = {
      title: 'V',
      type: 'object',
      properties: { ok: { anyOf: [{ type: 'boolean' }, { type: 'null' }], description: 'kept' } },
      required: ['ok'],
      additionalProperties: false,
    }
    await client.chat.completions.create({
      model: 'm',
      messages: user('x'),
      response_format: { type: 'json_schema', json_schema: { name: 'v', schema, strict: true } },
    })
    expect(engine.calls.map((c) => c.request.json)).toEqual([
      { kind: 'any' },
      undefined,
      {
        kind: 'schema',
        schema: {
          type: 'object',
          properties: { ok: { oneOf: [{ type: 'boolean' }, { type: 'null' }], description: 'kept' } },
          required: ['ok'],
          additionalProperties: false,
        },
      },
    ])
  })

  it('names the bad field in `param`, as OpenAI does', async () => {
    const { url } = await serve(scriptedChatEngine())
    const r = await post(url, {
      messages: [
        { role: 'user', content: 'x' },
        { role: 'user', content: 5 },
      ],
    })
    expect(r.json.error.param).toBe('messages[1].content')
  })

  it('refuses a body over the limit (413), a form post (415), a GET of completions (405) and unknown paths (404)', async () => {
    const { url } = await serve(scriptedChatEngine(), { maxBodyBytes: 2000 })
    const big = await post(url, { messages: user('x'.repeat(3000)) })
    expect(big.status).toBe(413)
    expectOpenAiError(big.json, 'invalid_request_error', 'payload_too_large')
    const form = await post(url, JSON.stringify({ messages: user('x') }), { 'Content-Type': 'text/plain' })
    expect(form.status).toBe(415)
    expectOpenAiError(form.json, 'invalid_request_error', 'unsupported_media_type')
    const get = await fetch(`${url}/v1/chat/completions`)
    expect(get.status).toBe(405)
    const legacy = await fetch(`${url}/v1/completions`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })
    expect(legacy.status).toBe(404)
    expectOpenAiError(await legacy.json(), 'invalid_request_error', 'unknown_url')
  })

  it('a prompt that fills the context is context_length_exceeded, which the SDK raises as a 400', async () => {
    const { url } = await serve(scriptedChatEngine({ contextSize: 10 }))
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'unused', maxRetries: 0 })
    await expect(
      client.chat.completions.create({ model: 'm', messages: user('one two three four five six seven eight') }),
    ).rejects.toMatchObject({ status: 400, code: 'context_length_exceeded', param: 'messages' })
    // Streaming too: the check comes before the stream's headers.
    const r = await post(url, { messages: user('one two three four five six seven eight'), stream: true })
    expect(r.status).toBe(400)
    expect(r.json.error.message).toMatch(/context holds 10 .*--context/)
  })
})

describe('serve-llm HTTP: hardening', () => {
  it('with a token, a request without it is 401 invalid_api_key; the SDK sends it as its API key', async () => {
    const { url } = await serve(scriptedChatEngine(), { token: 's3cret' })
    const none = await post(url, { messages: user('x') })
    expect(none.status).toBe(401)
    expectOpenAiError(none.json, 'invalid_request_error', 'invalid_api_key')
    expect(none.text).not.toContain('s3cret')
    const wrong = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'guess', maxRetries: 0 })
    await expect(wrong.models.list()).rejects.toMatchObject({ status: 401 })
    const right = new OpenAI({ baseURL: `${url}/v1`, apiKey: 's3cret', maxRetries: 0 })
    expect((await right.chat.completions.create({ model: 'm', messages: user('x') })).choices[0].message.content).toBe('echo: x')
  })

  it('refuses a Host that is not loopback or allowed (DNS rebinding)', async () => {
    const { url } = await serve(scriptedChatEngine())
    const evil = await raw(url, 'GET', '/v1/models', { Host: 'evil.example:8808' })
    expect(evil.status).toBe(403)
    expect(JSON.parse(evil.body).error.code).toBe('forbidden_host')
    const named = await serve(scriptedChatEngine(), { allowedHosts: ['.cluster.local'] })
    expect((await raw(named.url, 'GET', '/v1/models', { Host: 'llm.ns.cluster.local' })).status).toBe(200)
  })

  it("CORS: the app's loopback origin may call it with the browser SDK's headers; another origin may not", async () => {
    const lines: string[] = []
    const { url } = await serve(scriptedChatEngine(), { log: (l) => lines.push(l) })
    // What Chromium asks before the openai SDK's POST from the app (src/adapters/llm, dangerouslyAllowBrowser).
    const asked =
      'authorization,content-type,x-stainless-arch,x-stainless-lang,x-stainless-os,x-stainless-package-version,' +
      'x-stainless-retry-count,x-stainless-runtime,x-stainless-runtime-version,x-stainless-timeout'
    const pre = await raw(url, 'OPTIONS', '/v1/chat/completions', {
      Origin: 'http://127.0.0.1:5173',
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': asked,
    })
    expect(pre.status).toBe(204)
    expect(pre.headers['access-control-allow-origin']).toBe('http://127.0.0.1:5173')
    expect(pre.headers['access-control-allow-methods']).toContain('POST')
    expect(String(pre.headers['access-control-allow-headers']).split(', ')).toEqual(asked.split(','))
    // Headers outside the families the SDK uses are not allowed.
    const odd = await raw(url, 'OPTIONS', '/v1/chat/completions', {
      Origin: 'http://localhost:7575',
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'content-type,x-evil',
    })
    expect(odd.headers['access-control-allow-headers']).toBe('content-type')
    const post1 = await post(url, { messages: user('x') }, { Origin: 'http://127.0.0.1:5173' })
    expect(post1.status).toBe(200)
    expect(post1.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5173')
    expect(post1.headers.get('access-control-expose-headers')).toContain(SEED_HEADER)
    const foreign = await raw(url, 'OPTIONS', '/v1/chat/completions', {
      Origin: 'https://evil.example',
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'content-type',
    })
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined()
    // Even a request that skips the preflight is refused before any work.
    const engine = scriptedChatEngine()
    const other = await serve(engine, { log: (l) => lines.push(l) })
    const direct = await post(other.url, { messages: user('x') }, { Origin: 'https://evil.example' })
    expect(direct.status).toBe(403)
    expect(direct.json.error.code).toBe('forbidden_origin')
    expect(engine.calls).toHaveLength(0)
    // The log tells the browser's calls that never reached the model from those that did.
    expect(lines.filter((l) => !l.startsWith('POST /v1/chat/completions 200 '))).toEqual([
      'OPTIONS /v1/chat/completions 204 preflight',
      'OPTIONS /v1/chat/completions 204 preflight',
      'OPTIONS /v1/chat/completions 204 preflight refused',
      'POST /v1/chat/completions 403 forbidden origin',
    ])
  })

  it('--allow-origin replaces the loopback default', async () => {
    const { url } = await serve(scriptedChatEngine(), { allowedOrigins: ['https://redscope.example'] })
    expect((await post(url, { messages: user('x') }, { Origin: 'https://redscope.example' })).status).toBe(200)
    expect((await post(url, { messages: user('x') }, { Origin: 'http://127.0.0.1:5173' })).status).toBe(403)
  })

  it.each([
    ['authorization', true],
    ['content-type', true],
    ['x-stainless-helper-method', true],
    ['openai-organization', true],
    ['cookie', false],
    ['x-forwarded-for', false],
    ['x-stainless', false],
  ])('request header %s allowed by CORS: %s', (name, allowed) => {
    expect(llmRequestHeaderAllowed(name)).toBe(allowed)
  })
})

describe('serve-llm HTTP: slots and the queue', () => {
  it('answers `slots` at once, queues the next ones in arrival order, and refuses beyond the queue with 503 and Retry-After', async () => {
    const engine = scriptedChatEngine({ slots: 2, reply: (r) => `answer to ${r.messages[0].content}` })
    const server = await serve(engine, { maxQueue: 2 })
    engine.hold()
    const first = [post(server.url, { messages: user('r1') }), post(server.url, { messages: user('r2') })]
    await engine.started(2)
    // Queued one at a time so that their arrival order is known.
    const third = post(server.url, { messages: user('r3') })
    await vi.waitFor(() => expect(server.handler.waiting).toBe(1))
    const fourth = post(server.url, { messages: user('r4') })
    await vi.waitFor(() => expect(server.handler.waiting).toBe(2))
    expect(server.handler.running).toBe(2)
    const refused = await post(server.url, { messages: user('r5') })
    expect(refused.status).toBe(503)
    expectOpenAiError(refused.json, 'server_error', 'queue_full')
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    const health = await (await fetch(`${server.url}/health`)).json()
    expect(health).toMatchObject({ running: 2, waiting: 2 })
    engine.open()
    const answers = await Promise.all([...first, third, fourth])
    expect(answers.map((a) => a.json.choices[0].message.content)).toEqual(['answer to r1', 'answer to r2', 'answer to r3', 'answer to r4'])
    // FIFO: r3 was admitted before r4; each into a slot a finished request gave back.
    expect(engine.calls.map((c) => c.request.messages[0].content)).toEqual(['r1', 'r2', 'r3', 'r4'])
    expect(new Set(engine.calls.map((c) => c.slot))).toEqual(new Set([0, 1]))
    expect(engine.calls.map((c) => c.request.messages[0].content)).not.toContain('r5')
  })

  it('the openai SDK retries a 503 after Retry-After and then gets its answer', async () => {
    const engine = scriptedChatEngine({ slots: 1 })
    const lines: string[] = []
    const server = await serve(engine, { maxQueue: 0, log: (l) => lines.push(l) })
    engine.hold()
    const holder = post(server.url, { messages: user('first') })
    await engine.started(1)
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'x', maxRetries: 3 })
    const retried = client.chat.completions.create({ model: 'm', messages: user('second') })
    // The SDK's first attempt is refused; then the slot frees.
    await vi.waitFor(() => expect(lines).toContain('POST /v1/chat/completions 503'))
    engine.open()
    await holder
    expect((await retried).choices[0].message.content).toBe('echo: second')
  })

  it('a client that goes away leaves the queue; one that stops reading a stream ends its generation', async () => {
    const engine = scriptedChatEngine({ slots: 1, reply: () => Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ') })
    const server = await serve(engine, { maxQueue: 4 })
    engine.hold()
    const first = new AbortController()
    const streaming = fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ messages: user('a'), stream: true }),
      signal: first.signal,
    })
    await engine.started(1)
    const queued = new AbortController()
    const waiting = fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ messages: user('b') }),
      signal: queued.signal,
    }).catch((e: Error) => e)
    await vi.waitFor(() => expect(server.handler.waiting).toBe(1))
    queued.abort()
    expect(await waiting).toBeInstanceOf(Error)
    await vi.waitFor(() => expect(server.handler.waiting).toBe(0))
    engine.open()
    const res = await streaming
    const reader = res.body!.getReader()
    await reader.read()
    first.abort()
    await vi.waitFor(() => expect(server.handler.running).toBe(0))
    expect(engine.calls).toHaveLength(1)
    expect(engine.calls[0].aborted).toBe(true)
  })

  it('closing the server refuses the queue and ends running generations', async () => {
    const engine = scriptedChatEngine({ slots: 1 })
    const server = await listenLlmServer({ engine, maxQueue: 2 }, 0)
    engine.hold()
    const a = post(server.url, { messages: user('a') }).catch((e: Error) => e)
    await engine.started(1)
    const b = post(server.url, { messages: user('b') }).catch((e: Error) => e)
    await vi.waitFor(() => expect(server.handler.waiting).toBe(1))
    await server.close()
    const [ra, rb] = await Promise.all([a, b])
    // The queued one was refused with 503 shutting_down (or its socket closed first); the running one was aborted.
    if (!(rb instanceof Error)) expect(rb).toMatchObject({ status: 503, json: { error: { code: 'shutting_down' } } })
    expect(ra instanceof Error || ra.status !== 200 || ra.text === '').toBe(true)
    expect(engine.calls[0].aborted).toBe(true)
  })
})

describe('serve-llm HTTP: seeds', () => {
  it("a request's own seed is used and sent back; any integer becomes an unsigned 32-bit seed", async () => {
    const engine = scriptedChatEngine()
    const { url } = await serve(engine, { seed: 5 })
    const r = await post(url, { messages: user('x'), seed: 42 })
    expect(r.headers.get(SEED_HEADER)).toBe('42')
    await post(url, { messages: user('x'), seed: -1 })
    await post(url, { messages: user('x'), seed: 2 ** 32 + 7 })
    expect(engine.calls.map((c) => c.request.seed)).toEqual([42, 2 ** 32 - 1, 7])
  })

  it('with a server seed, the same request gets the same seed (streamed or not, any model name), another request another', async () => {
    const engine = scriptedChatEngine()
    const { url } = await serve(engine, { seed: 5 })
    const base = { messages: user('hello'), temperature: 0.8, max_tokens: 10 }
    const a = await post(url, { ...base, model: 'one' })
    const b = await post(url, { ...base, model: 'two', stream: true })
    const c = await post(url, { ...base, messages: user('hello!') })
    const d = await post(url, { ...base, temperature: 0.7 })
    expect(b.headers.get(SEED_HEADER)).toBe(a.headers.get(SEED_HEADER))
    expect(new Set([a, c, d].map((r) => r.headers.get(SEED_HEADER))).size).toBe(3)
    // Another server seed, other seeds.
    const other = await serve(scriptedChatEngine(), { seed: 6 })
    expect((await post(other.url, base)).headers.get(SEED_HEADER)).not.toBe(a.headers.get(SEED_HEADER))
  })

  it('without a server seed, each request draws a fresh seed', async () => {
    const engine = scriptedChatEngine()
    const { url } = await serve(engine)
    const seeds = new Set<string | null>()
    for (let i = 0; i < 4; i++) seeds.add((await post(url, { messages: user('same') })).headers.get(SEED_HEADER))
    expect(seeds.size).toBe(4)
  })
})
