/**
 * An OpenAI-compatible chat server on 127.0.0.1 whose every answer is chosen
 * by a script: a reply (with or without usage, after a delay), an HTTP status
 * (429 rate limits, 500s), or no answer at all. Reached through the real
 * openai SDK. With CORS, so the page can call it too.
 */
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface LlmCall {
  readonly model: string
  readonly messages: ReadonlyArray<{ readonly role: string; readonly content: string }>
  readonly authorization: string | undefined
  readonly maxTokens: number | undefined
}

export type LlmBehaviour =
  | { kind: 'reply'; content: string; usage?: { prompt_tokens: number; completion_tokens: number } | null; delayMs?: number }
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: 'hang' }

export interface ScriptedLlm {
  /** e.g. http://127.0.0.1:PORT/v1 */
  readonly baseURL: string
  readonly calls: LlmCall[]
  close(): Promise<void>
}

export const DEFAULT_USAGE = { prompt_tokens: 1000, completion_tokens: 100 }

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization, content-type, *',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
}

export async function startScriptedLlm(script: (call: LlmCall, index: number) => LlmBehaviour): Promise<ScriptedLlm> {
  const calls: LlmCall[] = []
  const hanging = new Set<ServerResponse>()
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString('utf8')))
    req.on('end', async () => {
      if (req.method === 'OPTIONS') {
        res.writeHead(204, CORS)
        return res.end()
      }
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json', ...CORS })
        return res.end(JSON.stringify({ error: { message: 'not found' } }))
      }
      const parsed = JSON.parse(body) as {
        model: string
        messages: LlmCall['messages']
        max_tokens?: number
        max_completion_tokens?: number
      }
      const call: LlmCall = {
        model: parsed.model,
        messages: parsed.messages,
        authorization: req.headers.authorization,
        maxTokens: parsed.max_tokens ?? parsed.max_completion_tokens,
      }
      calls.push(call)
      const b = script(call, calls.length - 1)
      if (b.kind === 'hang') return void hanging.add(res)
      if (b.kind === 'status') {
        res.writeHead(b.status, { 'content-type': 'application/json', ...CORS, ...b.headers })
        return res.end(JSON.stringify(b.body ?? { error: { message: `status ${b.status}`, type: 'scripted' } }))
      }
      if (b.delayMs) await new Promise((r) => setTimeout(r, b.delayMs))
      const usage = b.usage === null ? undefined : (b.usage ?? DEFAULT_USAGE)
      res.writeHead(200, { 'content-type': 'application/json', ...CORS })
      res.end(
        JSON.stringify({
          id: `chatcmpl-${calls.length}`,
          object: 'chat.completion',
          created: 0,
          model: parsed.model,
          choices: [{ index: 0, message: { role: 'assistant', content: b.content }, finish_reason: 'stop' }],
          ...(usage ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : {}),
        }),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        for (const r of hanging) r.destroy()
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
