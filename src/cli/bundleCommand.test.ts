// @vitest-environment node
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { main } from './main'

const FIXTURE = join(__dirname, '..', '..', 'e2e', 'fixtures', 'superred-results-example')

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'redscope-bundle-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

async function run(...argv: string[]) {
  let stdout = ''
  let stderr = ''
  const code = await main(argv, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s) })
  return { code, stdout, stderr }
}

// What is refused is refused before anything is built or written: no app build in these tests.
describe('redscope bundle refuses, naming what and where', () => {
  it('an OUT that holds other files, an OUT inside DIR, DIR inside OUT', async () => {
    const results = join(dir, 'results')
    cpSync(FIXTURE, results, { recursive: true })
    const busy = join(dir, 'busy')
    mkdirSync(busy)
    writeFileSync(join(busy, 'notes.txt'), 'mine')
    expect(await run('bundle', results, '--out', busy)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('the folder holds other files; give a new or empty folder'),
    })
    expect(await run('bundle', results, '--out', join(results, 'site'))).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('is inside'),
    })
    expect(await run('bundle', results, '--out', dir)).toMatchObject({ code: 2, stderr: expect.stringContaining('is inside --out') })
  })

  it('a folder that is not there, or holds no results tree', async () => {
    expect(await run('bundle', join(dir, 'nowhere'), '--out', join(dir, 'site'))).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('nowhere: no such folder'),
    })
    mkdirSync(join(dir, 'empty'))
    expect(await run('bundle', join(dir, 'empty'), '--out', join(dir, 'site'))).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('no results tree here'),
    })
  })

  it('a missing --out', async () => {
    expect(await run('bundle', FIXTURE)).toMatchObject({ code: 2, stderr: expect.stringContaining('--out') })
  })
})
