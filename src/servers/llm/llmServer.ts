/** The OpenAI-compatible server as a standalone node:http server, on 127.0.0.1 unless told otherwise. */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createLlmHandler, type LlmHandler, type LlmServerOptions } from './llmHandler'

export interface RunningLlmServer {
  /** e.g. `http://127.0.0.1:8808`; OpenAI clients take `${url}/v1` as their base URL. */
  readonly url: string
  readonly port: number
  readonly server: Server
  readonly handler: LlmHandler
  /** Ends queued and running requests, then stops listening (open keep-alive sockets too). The engine is the caller's to close. */
  close(): Promise<void>
}

export function listenLlmServer(options: LlmServerOptions, port = 0, host = '127.0.0.1'): Promise<RunningLlmServer> {
  const handler = createLlmHandler(options)
  const server = createServer((req, res) => handler(req, res))
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      const address = server.address() as AddressInfo
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address
      resolve({
        url: `http://${shownHost}:${address.port}`,
        port: address.port,
        server,
        handler,
        close: async () => {
          await handler.close()
          await new Promise<void>((done) => {
            server.close(() => done())
            server.closeAllConnections()
          })
        },
      })
    })
  })
}
