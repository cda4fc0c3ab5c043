/**
 * The hostile corpus through every parser where content enters as a file or
 * a link: it must come back as the same data (nothing dropped, unescaped or
 * reinterpreted), and JSON nested 100,000 deep, a deflate bomb or a 10 MB
 * string must give a clear error or pass as data without hanging, never a stack
 * overflow. The browser views are checked in e2e/hostile.spec.ts.
 */
import { deflateSync, strToU8 } from 'fflate'
import { claimFromFile, ClaimFileError, parseClaimFile } from '../claims'
import { valueText } from '../core/finding'
import { MemoryStorage, readJsonFile, ResultsFormatError, TrajectoryFile } from '../core/results'
import { buildDomain, type Forest } from '../core/tags'
import { ForestFileError, forestToJson, parseForestJson } from '../lib/forestJson'
import { decodePermalink, encodePermalink, PermalinkError, permalinkPayload } from '../lib/permalink'
import { forestToPython } from '../lib/pythonExport'
import { parseSecurityTags } from '../lib/pythonTags'
import { ManifestSchema } from '../protocol/schemas'
import { deeplyNestedJson, deeplyNestedObjectJson, HOSTILE_STRINGS, HOSTILE_TEXT, hostileNames, hugeString } from './hostileContent'
import { scriptedForest } from './scriptedTarget'

/** A forest whose every name and description is a payload, nested three deep. */
function hostileForest(): Forest {
  const names = hostileNames()
  return {
    tags: names.map((name, i) => ({
      name,
      parent: i === 0 ? null : names[Math.floor((i - 1) / 3)],
      description: HOSTILE_STRINGS[i % HOSTILE_STRINGS.length],
    })),
  }
}

/** Fails if `fn` takes longer than `ms`: nothing here may hang. */
// No wall-clock bounds here (they failed on a loaded machine and measure nothing a refusal's message does not):
// a parser that hung or went quadratic on these inputs would run into the file's test timeout instead.
vi.setConfig({ testTimeout: 60_000 })

describe('hostile content is data in every file format', () => {
  it('the corpus has every family the issue names, and each payload is distinct', () => {
    const all = HOSTILE_TEXT
    for (const needle of ['<script', 'onerror=', 'javascript:', 'data:text/html', '<style', '](javascript:', '\u202E', '\u200B'])
      expect(all).toContain(needle)
    expect(new Set(HOSTILE_STRINGS).size).toBe(HOSTILE_STRINGS.length)
    expect(new Set(hostileNames()).size).toBe(hostileNames().length)
  })

  it('FOREST.json: names and descriptions round-trip exactly, prototype names included', () => {
    const forest = hostileForest()
    expect(() => buildDomain(forest)).not.toThrow()
    expect(parseForestJson(forestToJson(forest))).toEqual(forest)
    expect(forest.tags.map((t) => t.name)).toContain('__proto__')
  })

  it('security_tags.py: the exported module reads back as the same forest', () => {
    const forest = hostileForest()
    const { forest: back } = parseSecurityTags(forestToPython(forest, HOSTILE_TEXT))
    // The module lists tags tree by tree (its own order); descriptions become docstrings, wrapped:
    // whitespace is folded, every other character kept.
    const folded = (s: string) => s.replace(/\s+/g, ' ').trim()
    const rows = (f: Forest) => f.tags.map((t) => JSON.stringify([t.name, t.parent, folded(t.description)])).sort()
    expect(rows(back)).toEqual(rows(forest))
    expect(back.tags).toHaveLength(forest.tags.length)
  })

  it('permalinks: the corpus round-trips; a deflate bomb, deep nesting and garbage are refused with a reason', () => {
    const forest = hostileForest()
    const link = encodePermalink({ name: HOSTILE_TEXT, forest, scope: [forest.tags[1].name], readOnly: [forest.tags[2].name] })
    const shared = decodePermalink(permalinkPayload(`#${link}`)!)
    expect(shared).toEqual({ v: 1, name: HOSTILE_TEXT, forest, scope: [forest.tags[1].name], readOnly: [forest.tags[2].name] })

    const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url')
    // 64 MB of zeros: a fragment of about 90 kB.
    const bomb = b64(deflateSync(new Uint8Array(64 * 2 ** 20), { level: 9 }))
    expect(bomb.length).toBeLessThan(200_000)
    expect(() => decodePermalink(bomb)).toThrow('would unpack to more than 16 MB')
    const deep = b64(deflateSync(strToU8(deeplyNestedObjectJson(100_000)), { level: 9 }))
    expect(() => decodePermalink(deep)).toThrow(/JSON nested deeper than 1,000 levels/)
    expect(() => decodePermalink('%%%not-base64')).toThrow(PermalinkError)
    // A 10 MB description is data, not a bomb.
    const big = { tags: [{ name: 'a', parent: null, description: hugeString(10) }] }
    expect(decodePermalink(encodePermalink({ forest: big, scope: ['a'], readOnly: [] }).slice('share='.length)).forest).toEqual(big)
  })

  it('claim files: hostile goals and configs are kept as text; nesting is refused by the schema', () => {
    const file = parseClaimFile(
      JSON.stringify({
        name: HOSTILE_STRINGS[0],
        tasks: HOSTILE_STRINGS.map((goal) => ({
          goal,
          config: { [HOSTILE_STRINGS[1]]: HOSTILE_TEXT },
          evaluator: { type: 'trajectory_match', observable: HOSTILE_STRINGS[2], pattern: 'x' },
        })),
      }),
      'hostile.json',
    )
    expect([...claimFromFile(file)].map((t) => t.goal.description)).toEqual(HOSTILE_STRINGS.map((s) => s.trim()))
    expect(() => parseClaimFile(deeplyNestedJson(100_000), 'deep.json')).toThrow(ClaimFileError)
    expect(() =>
      parseClaimFile(
        `{"name":"x","tasks":[{"goal":"g","config":${deeplyNestedObjectJson(100_000)},"evaluator":{"type":"query_evaluation","query":"q"}}]}`,
        'deep.json',
      ),
    ).toThrow('deep.json: not a claim file: tasks[0].config.a: config values are strings')
  })

  it('forest files and manifests nested 100,000 deep are refused by their schemas', () => {
    expect(() => parseForestJson(deeplyNestedJson(100_000))).toThrow(ForestFileError)
    expect(() => parseForestJson(`{"tags":[{"name":"a","description":${deeplyNestedObjectJson(100_000)}}]}`)).toThrow('tags[0].description')
    const manifest = JSON.parse(
      JSON.stringify({
        protocol: 'superred-target-http/1',
        name: 'x',
        security_domain: scriptedForest(true),
        controllables: [],
        observables: [],
      }),
    )
    expect(ManifestSchema.parse(manifest).security_domain.map((t) => t.name)).toEqual(scriptedForest(true).map((t) => t.name))
  })

  it('results files: a trajectory nested 100,000 deep is refused naming the file; the corpus reads back as it was', async () => {
    const storage = new MemoryStorage()
    await storage.writeTextAtomic('x/run_00001.json', `{"trajectory":[{"type":"ObservableEvent","content":${deeplyNestedJson(100_000)}}]}`)
    await expect(readJsonFile(storage, 'x/run_00001.json', TrajectoryFile)).rejects.toThrow(ResultsFormatError)
    await expect(readJsonFile(storage, 'x/run_00001.json', TrajectoryFile)).rejects.toThrow(
      'x/run_00001.json: JSON nested deeper than 1,000 levels',
    )
  })

  it('a forest nested 5,000 deep (one chain) goes through every format without overflowing the stack', () => {
    const chain: Forest = {
      tags: Array.from({ length: 5_000 }, (_, i) => ({ name: `t${i}`, parent: i === 0 ? null : `t${i - 1}`, description: `level ${i}` })),
    }
    expect(buildDomain(chain).get('t4999')!.parent!.name).toBe('t4998')
    expect(parseForestJson(forestToJson(chain))).toEqual(chain)
    const py = forestToPython(chain)
    // The drawing in the docstring stops at a readable depth; the assignments hold every tag.
    expect(py).toContain('… 4976 more tags below')
    expect(Math.max(...py.split('\n').map((l) => l.length))).toBeLessThan(200)
    expect(parseSecurityTags(py).forest).toEqual(chain)
    const link = encodePermalink({ forest: chain, scope: ['t10'], readOnly: [] })
    expect(decodePermalink(link.slice('share='.length)).forest).toEqual(chain)
  })

  it('a value too deep to print is shown as a sentence, never a crash', () => {
    let deep: unknown = null
    for (let i = 0; i < 100_000; i++) deep = [deep]
    expect(valueText(deep)).toMatch(/^\[this value cannot be shown as text: /)
    expect(valueText(HOSTILE_TEXT)).toBe(HOSTILE_TEXT)
  })
})
