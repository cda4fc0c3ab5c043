// @vitest-environment node
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isInside, resolveUnder, guardedSegments } from './pathGuard'

let base: string
let root: string

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'redscope-guard-')))
  root = join(base, 'results')
  mkdirSync(join(root, 'exp', 'tasks'), { recursive: true })
  writeFileSync(join(root, 'experiments.json'), '{}')
  writeFileSync(join(root, 'exp', 'manifest.json'), '{}')
  writeFileSync(join(root, '.env'), 'SECRET=1')
  mkdirSync(join(root, '.git'))
  writeFileSync(join(root, '.git', 'config'), 'x')
  writeFileSync(join(base, 'outside.txt'), 'not yours')
  mkdirSync(join(base, 'results-evil'))
  writeFileSync(join(base, 'results-evil', 'x.json'), '{}')
  symlinkSync(join(base, 'outside.txt'), join(root, 'link-out.json'))
  symlinkSync(base, join(root, 'dir-out'))
  symlinkSync(join(root, 'exp', 'manifest.json'), join(root, 'link-in.json'))
})
afterEach(() => rmSync(base, { recursive: true, force: true }))

describe('guardedSegments', () => {
  it('decodes plain segments and drops empty ones', () => {
    expect(guardedSegments('/exp//tasks/00001__a%20b/task.json')).toEqual({
      ok: true,
      segments: ['exp', 'tasks', '00001__a b', 'task.json'],
    })
  })
  it.each([
    ['/../etc/passwd', 403],
    ['/exp/../../x', 403],
    ['/%2e%2e/x', 403],
    ['/%2E%2e/x', 403],
    ['/./x', 403],
    ['/..%2fx', 403],
    ['/a%2f..%2f..%2fx', 403],
    ['/a%5c..%5cx', 403],
    ['/a%00.json', 403],
    ['/.env', 404],
    ['/.git/config', 404],
    ['/exp/.manifest.json.tmp-1', 404],
    ['/%2eenv', 404],
    ['/bad%zz', 400],
    ['/bad%', 400],
  ])('refuses %s with %i', (path, status) => {
    const r = guardedSegments(path)
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.status).toBe(status)
  })
})

describe('isInside', () => {
  it('holds for the root and below, not for a sibling that shares its prefix', () => {
    expect(isInside('/srv/results', '/srv/results')).toBe(true)
    expect(isInside('/srv/results', '/srv/results/a/b')).toBe(true)
    expect(isInside('/srv/results', '/srv/results-evil/x')).toBe(false)
    expect(isInside('/srv/results', '/srv')).toBe(false)
  })
})

describe('resolveUnder', () => {
  it('finds files and folders inside the root', async () => {
    const file = await resolveUnder(root, '/exp/manifest.json')
    expect(file).toMatchObject({ ok: true, kind: 'file', path: join(root, 'exp', 'manifest.json'), size: 2 })
    expect(await resolveUnder(root, '/exp')).toMatchObject({ ok: true, kind: 'dir' })
    expect(await resolveUnder(root, '/')).toMatchObject({ ok: true, kind: 'dir', path: root })
  })
  it('follows a symlink that stays inside', async () => {
    expect(await resolveUnder(root, '/link-in.json')).toMatchObject({ ok: true, path: join(root, 'exp', 'manifest.json') })
  })
  it('refuses symlinks that leave the root, to a file or through a folder', async () => {
    expect(await resolveUnder(root, '/link-out.json')).toMatchObject({ ok: false, status: 403 })
    expect(await resolveUnder(root, '/dir-out/outside.txt')).toMatchObject({ ok: false, status: 403 })
    expect(await resolveUnder(root, '/dir-out/results-evil/x.json')).toMatchObject({ ok: false, status: 403 })
  })
  it('answers dot-files and missing files alike (404), traversal with 403', async () => {
    expect(await resolveUnder(root, '/.env')).toMatchObject({ ok: false, status: 404 })
    expect(await resolveUnder(root, '/.git/config')).toMatchObject({ ok: false, status: 404 })
    expect(await resolveUnder(root, '/nothing.json')).toMatchObject({ ok: false, status: 404 })
    expect(await resolveUnder(root, '/../outside.txt')).toMatchObject({ ok: false, status: 403 })
    expect(await resolveUnder(root, '/%2e%2e/outside.txt')).toMatchObject({ ok: false, status: 403 })
  })
})
