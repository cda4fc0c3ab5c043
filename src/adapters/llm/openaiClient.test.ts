/**
 * The client against a real OpenAI-compatible HTTP server started here on
 * 127.0.0.1 (no mocking of the SDK): scripted completions with usage, one
 * without usage, a slow one for the concurrent cost cap.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { BudgetExhaustedError } from '../../core/engine/budget'
import { openAiClientFactory } from './openaiClient'

interface Seen {
  body: Record<string, unknown>
  auth: string | undefined
}
let server: Server
let baseURL = ''
let seen: Seen[] = []

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = ''
    req.on('data', (chunk) => {
      data += chunk
    })
    req.on('end', () => resolve(data))
  })

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req)) as { model: string; messages: Array<{ content: string }> }
    seen.push({ body, auth: req.headers.authorization })
    const prompt = body.messages.at(-1)?.content ?? ''
    if (prompt.startsWith('slow')) await new Promise((r) => setTimeout(r, 150))
    // A server from before structured outputs, as some compatible ones still are.
    if (prompt.startsWith('old-server') && 'response_format' in body) {
      res.writeHead(400, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({ error: { message: 'Unrecognized request argument supplied: response_format', type: 'invalid_request_error' } }),
      )
      return
    }
    const completion: Record<string, unknown> = {
      id: 'cmpl-1',
      object: 'chat.completion',
      created: 0,
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content: `echo: ${prompt}` }, finish_reason: 'stop' }],
    }
    if (prompt !== 'no-usage') completion.usage = { prompt_tokens: 1000, completion_tokens: 1, total_tokens: 1001 }
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify(completion))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
beforeEach(() => {
  seen = []
})

/** $1 per completion token, $0.001 per prompt token: one scripted call costs $2. */
const priceTable = {
  'test-model': { inputPerMillion: 1000, outputPerMillion: 1_000_000 },
  'gpt-5-mini': { inputPerMillion: 0, outputPerMillion: 0 },
}
const make = (cap: number | null, options: Parameters<typeof openAiClientFactory>[0] = {}, model = 'test-model') =>
  openAiClientFactory({ configured: priceTable, maxRetries: 0, ...options })(
    { model, apiBase: baseURL, apiKey: 'sk-test' },
    cap,
    new AbortController().signal,
  )

describe('openai client over HTTP', () => {
  it('counts calls and cost from the (editable) price table, and locks model and key', async () => {
    const client = make(null)
    const answer = await client.complete([{ role: 'user', content: 'hello' }], { temperature: 0.3, maxTokens: 5 })
    expect(answer).toMatchObject({ content: 'echo: hello', usage: { promptTokens: 1000, completionTokens: 1 } })
    expect(answer.costUsd).toBeCloseTo(2)
    expect(client.usage).toMatchObject({ calls: 1 })
    expect(client.usage.cost).toBeCloseTo(2)
    expect(seen[0].body).toMatchObject({ model: 'test-model', temperature: 0.3, max_tokens: 5 })
    expect(seen[0].auth).toBe('Bearer sk-test')
  })

  it('asks for JSON by schema (strict structured outputs); a server that refuses it is asked in words from then on', async () => {
    const jsonSchema = {
      name: 'verdict',
      schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'], additionalProperties: false },
    }
    await make(null).complete([{ role: 'user', content: 'new-server' }], { jsonSchema })
    expect(seen[0].body.response_format).toEqual({ type: 'json_schema', json_schema: { ...jsonSchema, strict: true } })
    const client = make(null)
    const answer = await client.complete([{ role: 'user', content: 'old-server' }], { jsonSchema })
    expect(answer.content).toBe('echo: old-server')
    await client.complete([{ role: 'user', content: 'old-server again' }], { jsonSchema })
    expect(seen.slice(1).map((c) => 'response_format' in c.body)).toEqual([true, false, false])
    // The refused try is not billed: one answer, one call.
    expect(client.usage.calls).toBe(2)
  })

  it('drops temperature for gpt-5 models and sends max_completion_tokens', async () => {
    await make(null, {}, 'gpt-5-mini').complete([{ role: 'user', content: 'x' }], { temperature: 0.3, maxTokens: 7 })
    expect(seen[0].body).not.toHaveProperty('temperature')
    expect(seen[0].body).toMatchObject({ max_completion_tokens: 7 })
  })

  it('a response without usage is an error (budget tracking needs it)', async () => {
    const client = make(null)
    await expect(client.complete([{ role: 'user', content: 'no-usage' }])).rejects.toThrow(
      'LLM response missing usage data (model=test-model). Budget tracking requires usage reporting from the provider.',
    )
    expect(client.usage.calls).toBe(0)
  })

  it('under concurrent calls, refuses to start once spent + in-flight reservations reach the cap', async () => {
    // Each call reserves $1 (maxTokens 1 at $1/token, plus a few prompt tokens) and really costs $2.
    const client = make(2.5)
    const calls = Array.from({ length: 5 }, (_, i) => client.complete([{ role: 'user', content: `slow ${i}` }], { maxTokens: 1 }))
    const outcomes = await Promise.allSettled(calls)
    expect(seen).toHaveLength(3) // the 4th and 5th never reached the server
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected'])
    const refused = outcomes[3] as PromiseRejectedResult
    expect(refused.reason).toBeInstanceOf(BudgetExhaustedError)
    expect(refused.reason.message).toMatch(/^Cost cap reached: \$3\.0\d+\/\$2\.500000$/)
    expect(client.usage.calls).toBe(3)
    await expect(client.complete([{ role: 'user', content: 'after' }])).rejects.toThrow('Cost cap reached: $6.000000/$2.500000')
    expect(seen).toHaveLength(3)
  })

  it('strict mode refuses a call whose own reservation would pass the cap', async () => {
    const client = make(2.5, { capMode: 'strict' })
    const outcomes = await Promise.allSettled(
      Array.from({ length: 4 }, () => client.complete([{ role: 'user', content: 'slow' }], { maxTokens: 1 })),
    )
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected'])
    expect(seen).toHaveLength(2)
  })

  it('a cap of zero refuses the first call without a request', async () => {
    await expect(make(0).complete([{ role: 'user', content: 'x' }])).rejects.toBeInstanceOf(BudgetExhaustedError)
    expect(seen).toHaveLength(0)
  })

  it('aborting the task signal aborts a call in flight', async () => {
    const abort = new AbortController()
    const client = openAiClientFactory({ configured: priceTable, maxRetries: 0 })(
      { model: 'test-model', apiBase: baseURL, apiKey: 'k' },
      null,
      abort.signal,
    )
    const pending = client.complete([{ role: 'user', content: 'slow' }])
    setTimeout(() => abort.abort(), 20)
    await expect(pending).rejects.toThrow()
    expect(client.usage.calls).toBe(0)
  })
})
