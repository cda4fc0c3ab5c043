/**
 * Two opened results as the viewer compares them: bad input names the side
 * at fault and why; the forest comes from a sweep.json or a domain.json.
 */
import { MemoryStorage } from '../results/memoryStorage'
import { compareStorages, ComparisonError } from '.'
import { writeTree, type TreeSpec } from './testTrees'

const GOALS = ['leak the code', 'send money']
const FOREST = {
  tags: [
    { name: 'inbox', parent: null, description: '' },
    { name: 'drive', parent: null, description: '' },
  ],
}

async function tree(spec: TreeSpec): Promise<MemoryStorage> {
  const storage = new MemoryStorage()
  await writeTree(storage, spec)
  return storage
}

describe('compareStorages', () => {
  it('compares two trees and paints on the forest a domain.json records', async () => {
    const base = await tree({ goals: GOALS, models: [{ scope: ['inbox'], outcomes: [false, false] }] })
    const head = await tree({ goals: GOALS, models: [{ scope: ['inbox'], outcomes: [true, false] }] })
    await head.writeTextAtomic('exp-00000/domain.json', JSON.stringify(FOREST))
    const opened = await compareStorages({ storage: base, label: 'base' }, { storage: head, label: 'head' })
    expect(opened.comparison.counts.regressions).toBe(1)
    expect(opened.forest).toEqual({ forest: FOREST, from: 'head/exp-00000/domain.json' })
    // Neither side records one: no forest, the comparison whole.
    expect((await compareStorages({ storage: base, label: 'base' }, { storage: base, label: 'again' })).forest).toBeNull()
  })

  it('names the side that is not a results tree, BASE first when both are not', async () => {
    const good = await tree({ goals: GOALS, models: [{ scope: ['inbox'], outcomes: [false, false] }] })
    const empty = new MemoryStorage()
    await empty.writeTextAtomic('notes.txt', 'hello')
    const err = await compareStorages({ storage: good, label: 'base' }, { storage: empty, label: 'downloads' }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ComparisonError)
    expect((err as ComparisonError).side).toBe('HEAD')
    expect((err as ComparisonError).message).toMatch(/^HEAD: downloads: not a results tree \(no experiments.json/)
    const both = await compareStorages({ storage: empty, label: 'a' }, { storage: empty, label: 'b' }).catch((e: unknown) => e)
    expect((both as ComparisonError).side).toBe('BASE')
  })

  it('names a truncated file with its path inside the side', async () => {
    const good = await tree({ goals: GOALS, models: [{ scope: ['inbox'], outcomes: [false, false] }] })
    const bad = await tree({ goals: GOALS, models: [{ scope: ['inbox'], outcomes: [false, false] }] })
    const text = await bad.readText('exp-00000/manifest.json')
    await bad.writeTextAtomic('exp-00000/manifest.json', text.slice(0, 40))
    const err = (await compareStorages({ storage: bad, label: 'old.zip' }, { storage: good, label: 'head' }).catch(
      (e: unknown) => e,
    )) as ComparisonError
    expect([err.side, err.message]).toEqual(['BASE', expect.stringMatching(/^BASE: old\.zip\/exp-00000\/manifest\.json: not JSON/)])
  })

  it('refuses trees of different claims, naming both', async () => {
    const base = await tree({ goals: GOALS, claim: 'exfiltration', models: [{ scope: ['inbox'], outcomes: [false, false] }] })
    const head = await tree({ goals: GOALS, claim: 'transfer', models: [{ scope: ['inbox'], outcomes: [false, false] }] })
    const err = (await compareStorages({ storage: base, label: 'base' }, { storage: head, label: 'head' }).catch(
      (e: unknown) => e,
    )) as ComparisonError
    expect([err.side, err.message]).toEqual([
      null,
      'head: measures claim transfer, base measures claim exfiltration: results of different claims cannot be compared',
    ])
  })
})
