/**
 * A local OpenAI-compatible chat server for tests (a real node:http server on
 * 127.0.0.1, driven through the real openai SDK): each completion's text
 * comes from `reply`, with fixed usage (1000 prompt + 100 completion tokens).
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ChatCall {
  readonly model: string
  readonly messages: ReadonlyArray<{ readonly role: string; readonly content: string }>
  readonly authorization: string | undefined
}

export interface OpenAiTestServer {
  /** e.g. http://127.0.0.1:PORT/v1 */
  readonly baseURL: string
  readonly calls: ChatCall[]
  close(): Promise<void>
}

export const TEST_USAGE = { prompt_tokens: 1000, completion_tokens: 100, total_tokens: 1100 }

export async function startOpenAiTestServer(reply: (call: ChatCall, index: number) => string | Promise<string>): Promise<OpenAiTestServer> {
  const calls: ChatCall[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString('utf8')))
    req.on('end', async () => {
      if (req.method === 'GET' && req.url === '/v1/models') {
        res.writeHead(200, { 'content-type': 'application/json' })
        return res.end(JSON.stringify({ object: 'list', data: [] }))
      }
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' })
        return res.end(JSON.stringify({ error: { message: 'not found' } }))
      }
      const parsed = JSON.parse(body) as { model: string; messages: ChatCall['messages'] }
      const call: ChatCall = { model: parsed.model, messages: parsed.messages, authorization: req.headers.authorization }
      calls.push(call)
      let content: string
      try {
        content = await reply(call, calls.length - 1)
      } catch (e) {
        res.writeHead(500, { 'content-type': 'application/json' })
        return res.end(JSON.stringify({ error: { message: (e as Error).message } }))
      }
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({
        id: `chatcmpl-${calls.length}`, object: 'chat.completion', created: 0, model: parsed.model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: TEST_USAGE,
      }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    calls,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    }),
  }
}
