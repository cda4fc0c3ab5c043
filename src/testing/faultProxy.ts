/**
 * A proxy in front of a real target server that misbehaves for chosen
 * sessions only: a task sets config `fault` (garbage | hang | drop) and its
 * session's next run response is answered with garbage, never answered, or
 * cut off. Every other request is forwarded untouched. On 127.0.0.1.
 */
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type Fault = 'garbage' | 'hang' | 'drop'

export interface FaultProxy {
  readonly url: string
  close(): Promise<void>
}

export async function startFaultProxy(upstream: string): Promise<FaultProxy> {
  const faults = new Map<string, Fault>()
  const hanging = new Set<ServerResponse>()
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString('utf8')))
    req.on('end', async () => {
      const path = req.url ?? '/'
      const sid = /^\/sessions\/([^/]+)/.exec(path)?.[1]
      if (sid && path.endsWith('/config') && body.includes('"fault"')) {
        faults.set(sid, JSON.parse(body).value as Fault)
        res.writeHead(204)
        return res.end()
      }
      const fault = sid ? faults.get(sid) : undefined
      if (fault && /\/runs\/[^/]+\/responses$/.test(path)) {
        if (fault === 'garbage') {
          res.writeHead(200, { 'content-type': 'application/json' })
          return res.end('{"run_id": "r1", "status": "paused", "events": "lots"')
        }
        if (fault === 'drop') return req.socket.destroy()
        hanging.add(res)
        return
      }
      const headers: Record<string, string> = {}
      if (req.headers['content-type']) headers['content-type'] = req.headers['content-type']
      if (req.headers.authorization) headers.authorization = req.headers.authorization
      const answer = await fetch(`${upstream}${path}`, { method: req.method, headers, body: body === '' ? undefined : body })
      const text = await answer.text()
      const out: Record<string, string> = {}
      answer.headers.forEach((v, k) => {
        if (k === 'content-type' || k === 'retry-after') out[k] = v
      })
      res.writeHead(answer.status, out)
      res.end(text)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy()
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
