import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { strToU8, zipSync } from 'fflate'
import { listExperiments, readExperiment, readTask, readTrajectory, StorageNotFoundError } from '../../core/results'
import { FileListStorage } from './fileListStorage'
import { HttpStorage, parseResultsUrl } from './httpStorage'
import { PathIndex, ReadOnlyStorageError } from './readOnlyStorage'
import { ZipStorage } from './zipStorage'

const FIXTURE = join(__dirname, '../../../e2e/fixtures/superred-results-example')
const EXP = 'scripted__stub-agent__leak__no-llm-44a31aa2'

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? filesUnder(join(dir, n)) : [join(dir, n)]))
}
/** The fixture as a browser would pick it: paths start with the picked folder's name. */
const picked = (top = 'superred-results-example') =>
  filesUnder(FIXTURE).map((f) => ({ path: `${top}/${relative(FIXTURE, f)}`, file: new Blob([readFileSync(f)]) }))

async function readsTheFixture(storage: FileListStorage | ZipStorage) {
  const experiments = await listExperiments(storage)
  expect(experiments.map((e) => e.dir)).toEqual([EXP])
  const exp = await readExperiment(storage, EXP)
  expect(exp.domain).toBeNull()
  expect(exp.manifest.tasks[0].dir).toBe('tasks/00001__leak_the_secret')
  const task = await readTask(storage, `${EXP}/tasks/00001__leak_the_secret`)
  expect(task.iterations?.runs).toHaveLength(2)
  const run = await readTrajectory(storage, `${EXP}/tasks/00001__leak_the_secret`, 2)
  expect(run?.trajectory).toHaveLength(14)
  expect(await readTrajectory(storage, `${EXP}/tasks/00001__leak_the_secret`, 2, 'attacker')).toBeNull()
}

describe('PathIndex', () => {
  it('roots at experiments.json, at the folder above a lone manifest, and drops ".." paths', () => {
    expect(
      new PathIndex([
        ['a/b/experiments.json', 1],
        ['a/b/x/manifest.json', 2],
      ]).root,
    ).toBe('a/b')
    const lone = new PathIndex([
      ['exp-1/manifest.json', 1],
      ['exp-1/tasks/t/task.json', 2],
      ['../etc/passwd', 3],
    ])
    expect(lone.root).toBe('')
    expect(lone.list('')).toEqual([{ name: 'exp-1', kind: 'dir' }])
    expect(lone.get('../etc/passwd')).toBeUndefined()
    expect(lone.size).toBe(2)
  })
})

describe('FileListStorage', () => {
  it('reads the superred fixture through the results reader', async () => {
    await readsTheFixture(new FileListStorage(picked(), 'superred-results-example'))
  })
  it('reads one experiment folder picked on its own', async () => {
    const storage = new FileListStorage(
      picked()
        .filter((f) => f.path.includes(EXP))
        .map((f) => ({ ...f, path: f.path.split('/').slice(1).join('/') })),
      EXP,
    )
    expect((await listExperiments(storage)).map((e) => e.dir)).toEqual([EXP])
  })
  it('is read-only and reports missing files as not found', async () => {
    const storage = new FileListStorage(picked(), 'x')
    await expect(storage.writeTextAtomic()).rejects.toBeInstanceOf(ReadOnlyStorageError)
    await expect(storage.readText('nope.json')).rejects.toBeInstanceOf(StorageNotFoundError)
  })
})

describe('ZipStorage', () => {
  it('reads a zip of the fixture folder (with its top folder) through the reader', async () => {
    const entries = Object.fromEntries(picked('top').map((f) => [f.path, strToU8(readFileSync(join(FIXTURE, f.path.slice(4))).toString())]))
    await readsTheFixture(new ZipStorage(zipSync(entries), 'results.zip'))
  })
  it('says clearly when the bytes are not a zip', () => {
    expect(() => new ZipStorage(strToU8('hello'), 'bad.zip')).toThrow(/bad\.zip: not a readable zip/)
  })
})

describe('HttpStorage', () => {
  it('accepts only http(s) addresses without credentials, and normalises to a folder', () => {
    expect(parseResultsUrl('http://127.0.0.1:8000/dashboard.html')).toEqual({ ok: true, base: 'http://127.0.0.1:8000/' })
    expect(parseResultsUrl('javascript:alert(1)')).toMatchObject({ ok: false })
    expect(parseResultsUrl('file:///etc/passwd')).toMatchObject({ ok: false })
    expect(parseResultsUrl('http://u:p@host/')).toMatchObject({ ok: false })
    expect(parseResultsUrl('not a url')).toMatchObject({ ok: false })
  })
  it('GETs files under the base, maps 404 to not found and a network failure to a CORS hint', async () => {
    const seen: string[] = []
    const fake: typeof fetch = async (input) => {
      const url = String(input)
      seen.push(url)
      if (url.endsWith('experiments.json')) return new Response(readFileSync(join(FIXTURE, 'experiments.json')))
      if (url.endsWith('boom.json')) throw new TypeError('Failed to fetch')
      return new Response('no', { status: 404 })
    }
    const storage = new HttpStorage('http://127.0.0.1:8000/res/', fake)
    expect((await listExperiments(storage)).map((e) => e.dir)).toEqual([EXP])
    expect(seen[0]).toBe('http://127.0.0.1:8000/res/experiments.json')
    await expect(storage.readText('a b/manifest.json')).rejects.toBeInstanceOf(StorageNotFoundError)
    expect(seen[1]).toBe('http://127.0.0.1:8000/res/a%20b/manifest.json')
    await expect(storage.readText('boom.json')).rejects.toThrow(/CORS/)
    // Paths taken from the files never leave the base.
    for (const escape of ['../x.json', 'a/../../x.json']) {
      await expect(storage.readText(escape)).rejects.toBeInstanceOf(StorageNotFoundError)
    }
    await expect(storage.readText('//evil.example/x.json')).rejects.toBeInstanceOf(StorageNotFoundError)
    expect(seen.at(-1)).toBe('http://127.0.0.1:8000/res/evil.example/x.json')
    expect(seen.every((u) => u.startsWith('http://127.0.0.1:8000/res/'))).toBe(true)
  })
})
