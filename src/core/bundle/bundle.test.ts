import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BundleStorage } from '../../adapters/storage/bundleStorage'
import { NodeFsStorage } from '../../adapters/storage/nodeFsStorage'
import { HOSTILE_TEXT } from '../../testing/hostileContent'
import { listExperiments, MemoryStorage, readExperiment, readTasks, readTrajectory, type Storage } from '../results'
import { buildBundle, type BundleOptions } from './build'
import { BUNDLE_INDEX_FILE, dataScriptText, parseDataScript } from './format'

const fixture = new NodeFsStorage(join(__dirname, '..', '..', '..', 'e2e', 'fixtures', 'superred-results-example'))
const EXP = 'scripted__stub-agent__leak__no-llm-44a31aa2'
const OPTIONS: BundleOptions = { title: 'fixture', createdAt: new Date('2026-01-02T03:04:05Z'), madeBy: 'test', redact: true }

/** Builds a bundle into memory and opens it as the viewer does, counting the chunks it loads. */
async function bundled(storage: Storage, options: Partial<BundleOptions> = {}) {
  const out = new Map<string, string>()
  const stats = await buildBundle(storage, { ...OPTIONS, ...options }, async (path, text) => {
    out.set(path, text)
  })
  const loaded: number[] = []
  const opened = new BundleStorage(parseDataScript(out.get(BUNDLE_INDEX_FILE)!), async (n) => {
    loaded.push(n)
    return parseDataScript(out.get(`data/${n}.js`)!)
  })
  return { out, stats, opened, loaded }
}

describe('a results tree as a static bundle', () => {
  it('reads back exactly as the tree it was made from, loading a chunk only when a view needs it', async () => {
    const { opened, loaded, stats, out } = await bundled(fixture)
    expect(stats).toMatchObject({ experiments: 1, files: 7, chunks: 3, masked: 0 })
    expect([...out.keys()].sort()).toEqual(['data/1.js', 'data/2.js', 'data/index.js'])
    // The list and the sweep grid (experiments.json, every manifest) come from the index alone.
    expect(await listExperiments(opened)).toEqual(await listExperiments(fixture))
    expect(JSON.parse(await opened.readText(`${EXP}/manifest.json`))).toEqual(JSON.parse(await fixture.readText(`${EXP}/manifest.json`)))
    expect(loaded).toEqual([])
    expect(await readExperiment(opened, EXP)).toEqual(await readExperiment(fixture, EXP))
    const tasks = await readTasks(opened, EXP)
    expect(tasks).toEqual(await readTasks(fixture, EXP))
    expect(loaded).toEqual([1])
    expect(await readTrajectory(opened, tasks[0].dir, 2)).toEqual(await readTrajectory(fixture, tasks[0].dir, 2))
    expect(await readTrajectory(opened, tasks[0].dir, 1, 'attacker')).toBeNull()
    expect(loaded).toEqual([1, 2])
    expect(opened.meta).toMatchObject({ title: 'fixture', experiments: 1, files: 7, createdAt: '2026-01-02T03:04:05.000Z' })
    expect(opened.meta.redaction.applied).toBe(true)
    expect(await opened.exists('nowhere/manifest.json')).toBe(false)
  })

  it('masks secrets with the built-in rules by default, in values, keys and folder names; --no-redact keeps them', async () => {
    const key = 'sk-proj-ABCDEFGHIJKLMNOPQRSTUV'
    const tree = new MemoryStorage()
    for (const path of ['experiments.json', `${EXP}/manifest.json`, `${EXP}/tasks/00001__leak_the_secret/task.json`]) {
      await tree.writeTextAtomic(path, await fixture.readText(path))
    }
    // Escaped in the file (\u00a0, \"): a pattern run over the raw text would miss it; the value is what is checked.
    await tree.writeTextAtomic(
      `${EXP}/tasks/00001__leak_the_secret/trajectories/run_00001.json`,
      `{"schema_version": 5, "run_number": 1, "trajectory": [], "note": "Bearer\\u00a0abcdefgh1234 and \\"${key}\\"", "${key}": 1.0}`,
    )
    await tree.writeTextAtomic(`mail-bob@example.com/manifest.json`, await fixture.readText(`${EXP}/manifest.json`))
    const { out, stats, opened } = await bundled(tree)
    const all = [...out.values()].join('\n')
    expect(all).not.toContain(key)
    expect(all).not.toContain('abcdefgh1234')
    expect(all).not.toContain('bob@example.com')
    expect(stats.maskedByRule).toEqual(
      new Map([
        ['api-key', 2],
        ['bearer', 1],
        ['email', 1],
      ]),
    )
    const run = JSON.parse(await opened.readText(`${EXP}/tasks/00001__leak_the_secret/trajectories/run_00001.json`))
    expect(run.note).toBe('Bearer\u00a0[redacted:bearer] and "[redacted:api-key]"')
    expect(Object.keys(run)).toContain('[redacted:api-key]')
    expect((await opened.list('')).map((e) => e.name)).toContain('[redacted:email]')
    // An untouched file keeps its bytes (superred's `1.0` and its spacing).
    expect(await opened.readText(`${EXP}/manifest.json`)).toBe(await fixture.readText(`${EXP}/manifest.json`))

    const plain = await bundled(tree, { redact: false })
    expect([...plain.out.values()].join('\n')).toContain(key)
    expect(plain.opened.meta.redaction).toEqual({ applied: false, rules: [], masked: 0 })
  })

  it('keeps hostile text and names as data: no markup in a script, a folder named __proto__ is a folder', async () => {
    const tree = new MemoryStorage()
    await tree.writeTextAtomic('__proto__/manifest.json', await fixture.readText(`${EXP}/manifest.json`))
    await tree.writeTextAtomic('__proto__/result.json', JSON.stringify({ note: HOSTILE_TEXT }))
    await tree.writeTextAtomic('.secret/manifest.json', '{}')
    await tree.writeTextAtomic('notes.txt', 'not results')
    await tree.writeTextAtomic(`${EXP}/previous_01/manifest.json`, '{}')
    await tree.writeTextAtomic(`${EXP}/tasks/00002__x.wip/task.json`, '{}')
    await tree.writeTextAtomic(`${EXP}/manifest.json`, await fixture.readText(`${EXP}/manifest.json`))
    const { out, opened } = await bundled(tree, { redact: false })
    for (const text of out.values()) {
      expect(text).not.toMatch(/<|>|\u2028|\u2029/)
      expect(text.split('\n').filter(Boolean)).toHaveLength(1)
    }
    expect(JSON.parse(await opened.readText('__proto__/result.json')).note).toBe(HOSTILE_TEXT)
    expect((await opened.list('')).map((e) => e.name)).toEqual(['__proto__', EXP])
    expect((await opened.list(EXP)).map((e) => e.name)).toEqual(['manifest.json'])
    expect(await opened.exists(`${EXP}/tasks/00002__x.wip/task.json`)).toBe(false)
  })

  it('takes only the chosen experiments, with their experiments.json rows and extra root files', async () => {
    const tree = new MemoryStorage()
    for (const path of ['experiments.json', `${EXP}/manifest.json`]) await tree.writeTextAtomic(path, await fixture.readText(path))
    await tree.writeTextAtomic('other-00000000/manifest.json', await fixture.readText(`${EXP}/manifest.json`))
    const { opened } = await bundled(tree, { dirs: ['other-00000000'], extraRootFiles: { 'sweep.json': '{"v": 1}' } })
    expect((await opened.list('')).map((e) => e.name)).toEqual(['other-00000000', 'sweep.json'])
    expect(await opened.readText('sweep.json')).toBe('{"v": 1}')
  })

  it('a data script is one call with a JSON literal, and nothing else parses as one', () => {
    const text = dataScriptText({ v: 1, chunk: 3, files: [['a', '</script><!--\u2028']], mounts: [] })
    expect(text).toBe(
      '(self.redscopeBundle=self.redscopeBundle||[]).push({"v":1,"chunk":3,"files":[["a","\\u003c/script\\u003e\\u003c!--\\u2028"]],"mounts":[]})\n',
    )
    expect(parseDataScript(text).files).toEqual([['a', '</script><!--\u2028']])
    expect(() => parseDataScript('alert(1)')).toThrow(/not a redscope bundle data script/)
  })
})
