/** A standalone target server: node:http around the protocol handler, on loopback by default. */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createTargetHandler, type TargetServerOptions } from './targetHandler'

export interface RunningTargetServer {
  /** Base URL, e.g. `http://127.0.0.1:8801`. */
  readonly url: string
  readonly port: number
  readonly server: Server
  /** Tears down all sessions, then stops listening (open keep-alive sockets are closed too). */
  close(): Promise<void>
}

export interface TargetServer {
  readonly server: Server
  /** Port 0 picks a free port. The host defaults to 127.0.0.1: never exposed beyond the machine unless asked. */
  listen(port?: number, host?: string): Promise<RunningTargetServer>
}

export function createTargetServer(options: TargetServerOptions): TargetServer {
  const handler = createTargetHandler(options)
  const server = createServer((req, res) => handler(req, res))
  return {
    server,
    listen(port = 0, host = '127.0.0.1') {
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
    },
  }
}
