/**
 * An OpenAI-compatible chat server on 127.0.0.1 for tests that a browser can
 * call too: it answers CORS preflights (echoing the headers asked for, so the
 * SDK's `authorization` and `x-stainless-*` pass) and allows any origin.
 * Each completion's text comes from `reply`; usage is fixed (1000 prompt +
 * 100 completion tokens). The one fake LLM endpoint of the unit and e2e tests.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ChatServerCall {
  readonly model: string
  readonly messages: ReadonlyArray<{ readonly role: string; readonly content: string }>
  readonly authorization: string | undefined
}

export interface ChatServer {
  /** e.g. http://127.0.0.1:PORT/v1 */
  readonly baseURL: string
  readonly calls: ChatServerCall[]
  close(): Promise<void>
}

export const CHAT_SERVER_USAGE = { prompt_tokens: 1000, completion_tokens: 100, total_tokens: 1100 }

function cors(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('Access-Control-Allow-Origin', req.headers.origin ?? '*')
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS')
  res.setHeader('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? 'authorization, content-type')
  res.setHeader('Access-Control-Max-Age', '600')
}

export async function startChatServer(
  reply: (call: ChatServerCall, index: number) => string | Promise<string>,
  port = 0,
  /** `cors: false`: a model server that does not allow the page's origin (no CORS headers at all). */
  options: { cors?: boolean } = {},
): Promise<ChatServer> {
  const calls: ChatServerCall[] = []
  const server = createServer((req, res) => {
    if (options.cors !== false) cors(req, res)
    if (req.method === 'OPTIONS') {
      res.writeHead(204)
      return res.end()
    }
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString('utf8')))
    req.on('end', async () => {
      const json = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' })
        res.end(JSON.stringify(payload))
      }
      if (req.method === 'GET' && req.url === '/v1/models') return json(200, { object: 'list', data: [] })
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return json(404, { error: { message: 'not found' } })
      const parsed = JSON.parse(body) as { model: string; messages: ChatServerCall['messages'] }
      const call: ChatServerCall = { model: parsed.model, messages: parsed.messages, authorization: req.headers.authorization }
      calls.push(call)
      let content: string
      try {
        content = await reply(call, calls.length - 1)
      } catch (e) {
        return json(500, { error: { message: (e as Error).message } })
      }
      json(200, {
        id: `chatcmpl-${calls.length}`,
        object: 'chat.completion',
        created: 0,
        model: parsed.model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: CHAT_SERVER_USAGE,
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
