/**
 * A Target-over-HTTP server written by hand (raw node:http on 127.0.0.1), so
 * that it can say anything a hostile or broken target could: answers the
 * server library would never produce (a 10 MB string, JSON nested 100,000
 * deep, a body of tens of megabytes, half a JSON document), hostile tag,
 * surface and description names in its manifest, and every network fault
 * mid-run. Each task picks its behaviour with config `mode`; the fault hits
 * the run's first response (after the attacker answered the first pause).
 *
 * One run = start (events + a pre-call pause on `user_message`) → response →
 * finished, with `reply` observing `echo: <injected value>`. `heal()` makes
 * every later session behave (mode `ok`), so a rerun can show resumption.
 * `echo` and `echo500` send back the Authorization header the target got (in
 * an observation, in an error), as a careless or hostile target would.
 */
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { deeplyNestedJson, HOSTILE_STRINGS, HOSTILE_TEXT, hostileNames, hugeString } from './hostileContent'

export const MODES = [
  'ok',
  'corpus',
  'huge',
  'nested',
  'slow',
  'never',
  'status500',
  'malformed',
  'oversized',
  'drop',
  'expire',
  'echo',
  'echo500',
] as const
export type Mode = (typeof MODES)[number]

export interface ScriptedTargetOptions {
  /** Tag names, descriptions and surface names made of the hostile corpus. */
  readonly hostileManifest?: boolean
  /** Every request must carry `Authorization: Bearer <token>`. */
  readonly token?: string
  readonly concurrency?: number
  /** How long `slow` waits before answering. Default 300 ms. */
  readonly slowMs?: number
  /** Size of the `oversized` answer. Default 40 MB. */
  readonly oversizedMb?: number
  /** Depth of the `nested` content. Default 100,000. */
  readonly nestedDepth?: number
}

export interface ScriptedTarget {
  readonly url: string
  /** Sessions opened, in order, with the mode each was given. */
  readonly sessions: Array<{ id: string; mode: Mode }>
  /** Every Authorization header seen (to prove which secrets reached the target). */
  readonly authorizations: Set<string>
  /** From now on every session runs as `ok`. */
  heal(): void
  close(): Promise<void>
}

/** The tags of the hostile manifest: three plain roots, then one tag per hostile name under `tools`. */
export function scriptedForest(hostile: boolean): Array<{ name: string; parent: string | null; description: string }> {
  const tags: Array<{ name: string; parent: string | null; description: string }> = [
    { name: 'system', parent: null, description: hostile ? HOSTILE_TEXT : 'the system side' },
    { name: 'user', parent: null, description: hostile ? SCRIPT_DESCRIPTION : 'the user' },
    { name: 'tools', parent: null, description: 'tool channels' },
  ]
  if (hostile)
    for (const [i, name] of hostileNames(24).entries())
      tags.push({ name, parent: 'tools', description: HOSTILE_STRINGS[i % HOSTILE_STRINGS.length] })
  return tags
}
const SCRIPT_DESCRIPTION = '<img src=x onerror="window.__pwned=1"> the user'

function manifest(opts: ScriptedTargetOptions) {
  const hostile = opts.hostileManifest ?? false
  const forest = scriptedForest(hostile)
  return {
    protocol: 'superred-target-http/1',
    name: hostile ? 'scripted <script>window.__pwned=1</script>' : 'scripted',
    description: hostile ? HOSTILE_TEXT : 'a scripted target',
    security_domain: forest,
    controllables: [
      { name: 'user_message', security_domain: 'user', description: hostile ? SCRIPT_DESCRIPTION : "the user's message" },
      ...(hostile ? [{ name: '<svg onload="window.__pwned=1">', security_domain: forest[4].name, description: HOSTILE_TEXT }] : []),
    ],
    observables: [
      { name: 'reply', security_domain: 'user', description: hostile ? HOSTILE_TEXT : 'the reply', observable_type: 'text', content: null },
      {
        name: 'model_identity',
        security_domain: 'system',
        description: '',
        observable_type: 'text',
        content: hostile ? HOSTILE_TEXT : 'scripted-1',
      },
    ],
    config_specs: [{ name: 'mode', security_domain: 'system', description: MODES.join(' | ') }],
    query_specs: [{ name: 'injections', description: 'values injected so far', params: [] }],
    concurrency: opts.concurrency ?? 4,
  }
}

const reply = (content: unknown) => ({ type: 'ObservableEvent', observable: { name: 'reply', security_domain: 'user' }, content })

/** Resolves when the socket wants more, or is gone. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done)
      res.off('close', done)
      resolve()
    }
    res.on('drain', done)
    res.on('close', done)
  })
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'access-control-allow-origin': '*' })
  res.end(typeof body === 'string' ? body : JSON.stringify(body))
}

export async function startScriptedTarget(opts: ScriptedTargetOptions = {}): Promise<ScriptedTarget> {
  const sessions = new Map<string, { mode: Mode; injected: string[] }>()
  const order: Array<{ id: string; mode: Mode }> = []
  const authorizations = new Set<string>()
  const hanging = new Set<ServerResponse>()
  let healed = false
  let next = 0
  const body = manifest(opts)

  const respond = async (res: ServerResponse, sid: string, value: string | null, authorization: string) => {
    const s = sessions.get(sid)!
    if (value !== null) s.injected.push(value)
    const finished = (events: unknown[]) => send(res, 200, { run_id: 'r1', events, status: 'finished', pause: null, error: null })
    switch (s.mode) {
      case 'ok':
        return finished([reply(`echo: ${value ?? '(declined)'}`)])
      case 'corpus':
        return finished([
          ...HOSTILE_STRINGS.map(reply),
          reply({ html: HOSTILE_STRINGS[0], [HOSTILE_STRINGS[1]]: HOSTILE_STRINGS }),
          {
            type: 'ObservableEvent',
            observable: { name: HOSTILE_STRINGS[2], security_domain: 'user', description: HOSTILE_TEXT },
            content: 'echo',
          },
        ])
      case 'huge':
        return finished([reply(`echo ${hugeString(10)}`)])
      case 'nested': {
        res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' })
        return res.end(
          `{"run_id":"r1","status":"finished","pause":null,"error":null,"events":[{"type":"ObservableEvent",` +
            `"observable":{"name":"reply","security_domain":"user"},"content":${deeplyNestedJson(opts.nestedDepth ?? 100_000)}}]}`,
        )
      }
      case 'slow':
        await new Promise((r) => setTimeout(r, opts.slowMs ?? 300))
        return finished([reply(`echo: ${value}`)])
      case 'never':
        return void hanging.add(res)
      case 'status500':
        res.writeHead(500, { 'content-type': 'text/html', 'access-control-allow-origin': '*' })
        return res.end('<html><body><script>window.__pwned=1</script>Internal Server Error</body></html>')
      case 'malformed':
        res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' })
        return res.end('{"run_id": "r1", "status": "paused", "events": [')
      case 'oversized': {
        res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' })
        const chunk = hugeString(1, 'B')
        res.write(
          '{"run_id":"r1","status":"finished","pause":null,"error":null,"events":[{"type":"ObservableEvent","observable":{"name":"reply","security_domain":"user"},"content":"',
        )
        for (let i = 0; i < (opts.oversizedMb ?? 40); i++) {
          // Stop writing once the client gave up (it should, long before the end).
          if (res.destroyed) return
          if (!res.write(chunk)) await drained(res)
        }
        return res.end('"}]}')
      }
      case 'echo':
        return finished([reply(`echo: ${value}; you sent ${authorization}`), reply({ headers: { authorization } })])
      case 'echo500':
        return send(res, 500, { error: { code: 'internal', message: `did not like ${authorization}` } })
      case 'drop':
        return res.socket?.destroy()
      case 'expire':
        sessions.delete(sid)
        return send(res, 404, { error: { code: 'unknown_session', message: `session ${sid} expired` } })
    }
  }

  const server = createServer((req, res) => {
    let raw = ''
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')))
    req.on('end', () => {
      if (req.method === 'OPTIONS') {
        res.writeHead(204, {
          'access-control-allow-origin': '*',
          'access-control-allow-headers': 'authorization, content-type',
          'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
        })
        return res.end()
      }
      if (req.headers.authorization) authorizations.add(req.headers.authorization)
      if (opts.token !== undefined && req.headers.authorization !== `Bearer ${opts.token}`) {
        return send(res, 401, { error: { code: 'unauthorized', message: 'a bearer token is required' } })
      }
      const path = (req.url ?? '/').split('?')[0]
      if (req.method === 'GET' && path === '/manifest') return send(res, 200, body)
      if (req.method === 'POST' && path === '/sessions') {
        const id = `s${++next}`
        sessions.set(id, { mode: 'ok', injected: [] })
        order.push({ id, mode: 'ok' })
        return send(res, 201, { session_id: id })
      }
      const m = /^\/sessions\/([^/]+)(\/.*)?$/.exec(path)
      const sid = m ? decodeURIComponent(m[1]) : ''
      const rest = m?.[2] ?? ''
      if (req.method === 'DELETE' && m) {
        sessions.delete(sid)
        res.writeHead(204, { 'access-control-allow-origin': '*' })
        return res.end()
      }
      const s = sessions.get(sid)
      if (!s) return send(res, 404, { error: { code: 'unknown_session', message: `no session ${sid}` } })
      let json: Record<string, unknown> = {}
      try {
        json = raw === '' ? {} : JSON.parse(raw)
      } catch {
        return send(res, 400, { error: { code: 'bad_request', message: 'not JSON' } })
      }
      if (rest === '/config') {
        if (json.name !== 'mode' || !MODES.includes(json.value as Mode)) {
          return send(res, 422, { error: { code: 'unknown_config', message: `mode must be one of ${MODES.join(', ')}` } })
        }
        s.mode = healed ? 'ok' : (json.value as Mode)
        order.find((o) => o.id === sid)!.mode = s.mode
        res.writeHead(204, { 'access-control-allow-origin': '*' })
        return res.end()
      }
      if (rest === '/runs') {
        const request = s.mode === 'corpus' ? HOSTILE_TEXT : 'hello?'
        return send(res, 200, {
          run_id: 'r1',
          events: [reply(s.mode === 'corpus' ? HOSTILE_TEXT : 'run started')],
          status: 'paused',
          pause: { call_id: 'c1', type: 'ControllablePreCallEvent', controllable: 'user_message', request },
          error: null,
        })
      }
      if (rest === '/runs/r1/responses') {
        const response = json.response as { type?: string; value?: string } | undefined
        return void respond(
          res,
          sid,
          response?.type === 'ControllableInjection' ? String(response.value) : null,
          req.headers.authorization ?? '(none)',
        )
      }
      if (rest === '/query') return send(res, 200, { value: JSON.stringify(s.injected) })
      if (rest === '/reset') {
        res.writeHead(204, { 'access-control-allow-origin': '*' })
        return res.end()
      }
      return send(res, 404, { error: { code: 'not_found', message: path } })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sessions: order,
    authorizations,
    heal: () => void (healed = true),
    close: () =>
      new Promise<void>((resolve) => {
        for (const r of hanging) r.destroy()
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
