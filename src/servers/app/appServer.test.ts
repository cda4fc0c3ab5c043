// @vitest-environment node
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startAppServer, type RunningAppServer } from './appServer'
import { CONTENT_SECURITY_POLICY } from './contentSecurityPolicy'

let base: string
let servers: RunningAppServer[] = []

/** A GET as sent on the wire: fetch would normalise `..` away before the server ever saw it. */
function raw(url: string, path: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const u = new URL(url)
    const req = request({ host: u.hostname, port: u.port, path, method, headers }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (body += c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'redscope-app-')))
  mkdirSync(join(base, 'dist', 'assets'), { recursive: true })
  writeFileSync(join(base, 'dist', 'index.html'), '<!doctype html><title>redscope</title>')
  writeFileSync(join(base, 'dist', 'assets', 'index-abc.js'), 'console.log(1)')
  mkdirSync(join(base, 'results', 'exp-1', 'tasks'), { recursive: true })
  writeFileSync(join(base, 'results', 'experiments.json'), '{"schema_version":5,"experiments":[]}')
  writeFileSync(join(base, 'results', 'exp-1', 'manifest.json'), '{}')
  writeFileSync(join(base, 'results', '.env'), 'OPENAI_API_KEY=sk-secret')
  writeFileSync(join(base, 'secret.txt'), 'outside the folder')
  symlinkSync(join(base, 'secret.txt'), join(base, 'results', 'escape.json'))
  symlinkSync(base, join(base, 'results', 'up'))
})
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()))
  servers = []
  rmSync(base, { recursive: true, force: true })
})

async function serve(extra: Partial<Parameters<typeof startAppServer>[0]> = {}, host?: string) {
  const s = await startAppServer({ appDir: join(base, 'dist'), resultsDir: join(base, 'results'), ...extra }, 0, host)
  servers.push(s)
  return s.url
}

describe('the app server', () => {
  it('sends the content security policy as a header, frame-ancestors included', async () => {
    const url = await serve()
    const r = await raw(url, '/')
    expect(r.status).toBe(200)
    expect(r.body).toContain('<title>redscope</title>')
    expect(r.headers['content-security-policy']).toBe(`${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`)
    expect(r.headers['x-content-type-options']).toBe('nosniff')
  })

  it('answers page addresses with the app, missing assets with 404', async () => {
    const url = await serve()
    expect((await raw(url, '/results/exp-1/00001__goal/1/3?src=served')).body).toContain('<title>redscope</title>')
    expect((await raw(url, '/assets/index-abc.js')).headers['cache-control']).toContain('immutable')
    expect((await raw(url, '/assets/missing.js')).status).toBe(404)
  })

  it('serves the results folder read-only: its name, listings without dot-files or links out, files', async () => {
    const url = await serve()
    expect(JSON.parse((await raw(url, '/api/results')).body)).toEqual({ label: 'results' })
    const list = JSON.parse((await raw(url, '/api/results/list/')).body)
    expect(list.entries).toEqual([
      { name: 'exp-1', kind: 'dir' },
      { name: 'experiments.json', kind: 'file' },
    ])
    const file = await raw(url, '/api/results/files/exp-1/manifest.json')
    expect(file.status).toBe(200)
    expect(file.headers['cache-control']).toBe('no-store')
    expect(file.headers['content-security-policy']).toContain('sandbox')
    expect((await raw(url, '/api/results/files/exp-1/manifest.json', {}, 'PUT')).status).toBe(405)
    expect((await raw(url, '/api/results/files/exp-1/absent.json')).status).toBe(404)
  })

  it.each([
    '/api/results/files/../secret.txt',
    '/api/results/files/%2e%2e/secret.txt',
    '/api/results/files/..%2fsecret.txt',
    '/api/results/files/escape.json',
    '/api/results/files/up/secret.txt',
    '/api/results/list/up',
    '/api/results/list/..',
    '/../secret.txt',
    '/assets/%2e%2e/%2e%2e/secret.txt',
  ])('refuses %s (403, and never the file)', async (path) => {
    const url = await serve()
    const r = await raw(url, path)
    expect(r.status).toBe(403)
    expect(r.body).not.toContain('outside the folder')
  })

  it('hides dot-files (404, like a missing file)', async () => {
    const url = await serve()
    const r = await raw(url, '/api/results/files/.env')
    expect(r.status).toBe(404)
    expect(r.body).not.toContain('sk-secret')
    expect((await raw(url, '/.env')).status).toBe(404)
  })

  it('says when no results folder is served: an answer the Results tab reads without a 404', async () => {
    const url = await serve({ resultsDir: undefined })
    const info = await raw(url, '/api/results')
    expect(info.status).toBe(200)
    expect(JSON.parse(info.body)).toEqual({ label: null })
    expect((await raw(url, '/api/results/files/experiments.json')).status).toBe(404)
  })

  it('refuses a Host it does not know (DNS rebinding)', async () => {
    const url = await serve()
    expect((await raw(url, '/', { Host: 'evil.example:80' })).status).toBe(403)
    expect((await raw(url, '/', { Host: 'localhost' })).status).toBe(200)
  })

  it('will not listen beyond loopback without a token', async () => {
    await expect(serve({}, '0.0.0.0')).rejects.toThrow(/token is required/)
  })

  it('with a token, answers nothing without it; takes it as a Basic password or a Bearer token', async () => {
    const url = await serve({ token: 's3cret' })
    const none = await raw(url, '/api/results/files/experiments.json')
    expect(none.status).toBe(401)
    expect(none.headers['www-authenticate']).toMatch(/^Basic /)
    expect((await raw(url, '/', { Authorization: 'Bearer wrong' })).status).toBe(401)
    expect((await raw(url, '/', { Authorization: 'Bearer s3cret' })).status).toBe(200)
    const basic = `Basic ${Buffer.from('anyone:s3cret').toString('base64')}`
    expect((await raw(url, '/api/results/files/experiments.json', { Authorization: basic })).status).toBe(200)
  })

  it('wrong tokens: ten, then 429 with Retry-After; a request without one (a browser before its prompt) is no guess', async () => {
    const url = await serve({ token: 's3cret-token' })
    for (let i = 0; i < 12; i++) expect((await raw(url, '/')).status).toBe(401)
    const basic = (p: string) => `Basic ${Buffer.from(`me:${p}`).toString('base64')}`
    for (let i = 0; i < 10; i++) expect((await raw(url, '/', { Authorization: basic(`guess-${i}`) })).status).toBe(401)
    const locked = await raw(url, '/', { Authorization: basic('s3cret-token') })
    expect([locked.status, locked.headers['retry-after']]).toEqual([429, '1'])
  })

  it('serves the reference targets over the protocol', async () => {
    const url = await serve()
    const r = await raw(url, '/targets/chatbot/manifest')
    expect(r.status).toBe(200)
    expect(JSON.parse(r.body).name).toBe('redscope-chatbot')
  })

  it("the reference targets act for the app's own page only: another origin's simple POST is 403 and opens no session", async () => {
    const url = await serve({ token: 's3cret', allowedHosts: true })
    const auth = { Authorization: 'Bearer s3cret' }
    for (let i = 0; i < 10; i++) {
      const evil = await raw(
        url,
        '/targets/chatbot/sessions',
        { ...auth, Origin: 'https://evil.example', 'Content-Type': 'text/plain' },
        'POST',
      )
      expect(evil.status).toBe(403)
      expect(JSON.parse(evil.body).error.code).toBe('forbidden_origin')
    }
    // The app's own page, served beyond loopback under its own name, is same-origin: its sessions open.
    const own = await raw(
      url,
      '/targets/chatbot/sessions',
      { ...auth, Host: 'lab.example:8080', Origin: 'http://lab.example:8080', 'Content-Type': 'application/json' },
      'POST',
    )
    expect(own.status).toBe(201)
  })
})
