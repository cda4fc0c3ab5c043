import 'fake-indexeddb/auto'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { MemoryStorage } from '../../core/results/memoryStorage'
import { StorageNotFoundError, type Storage } from '../../core/results/storage'
import { IndexedDbStorage } from './indexedDbStorage'
import { NodeFsStorage } from './nodeFsStorage'

const tmp = mkdtempSync(join(tmpdir(), 'redscope-storage-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

let n = 0
const backends: Array<[string, () => Storage]> = [
  ['memory', () => new MemoryStorage()],
  ['node fs', () => new NodeFsStorage(join(tmp, `t${++n}`))],
  ['indexeddb', () => new IndexedDbStorage(`db-${++n}`, 'root/tree')],
]

describe.each(backends)('%s storage', (_, make) => {
  it('writes, reads, lists (sorted, files and folders), checks existence and removes trees', async () => {
    const s = make()
    await s.writeTextAtomic('exp/tasks/00002__b/task.json', '{"b":1}')
    await s.writeTextAtomic('exp/tasks/00001__a/task.json', '{"a":1}')
    await s.writeTextAtomic('exp/manifest.json', 'ü ✓')
    expect(await s.readText('exp/manifest.json')).toBe('ü ✓')
    expect(await s.list('exp')).toEqual([{ name: 'manifest.json', kind: 'file' }, { name: 'tasks', kind: 'dir' }])
    expect((await s.list('exp/tasks')).map((e) => e.name)).toEqual(['00001__a', '00002__b'])
    expect(await s.list('nowhere')).toEqual([])
    expect(await s.exists('exp/tasks')).toBe(true)
    expect(await s.exists('exp/tasks/00001__a/task.json')).toBe(true)
    expect(await s.exists('exp/tasks/nope')).toBe(false)
    await s.writeTextAtomic('exp/manifest.json', 'second')
    expect(await s.readText('exp/manifest.json')).toBe('second')
    await s.remove('exp/tasks/00001__a')
    expect((await s.list('exp/tasks')).map((e) => e.name)).toEqual(['00002__b'])
    await s.remove('exp/does-not-exist')
    await expect(s.readText('exp/tasks/00001__a/task.json')).rejects.toBeInstanceOf(StorageNotFoundError)
  })

  it('snapshots with linkOrCopy: a later atomic write to the source leaves the snapshot unchanged', async () => {
    const s = make()
    await s.writeTextAtomic('exp/result.json', 'v1')
    await s.linkOrCopy('exp/result.json', 'exp/previous_01/result.json')
    await s.writeTextAtomic('exp/result.json', 'v2')
    expect(await s.readText('exp/previous_01/result.json')).toBe('v1')
    expect(await s.readText('exp/result.json')).toBe('v2')
  })
})

describe('node fs storage specifics', () => {
  it('leaves no temp files behind, shares snapshot bytes by hard link, and refuses paths that escape the root', async () => {
    const root = join(tmp, 'specifics')
    const s = new NodeFsStorage(root)
    await Promise.all(Array.from({ length: 20 }, (_, i) => s.writeTextAtomic('m.json', `v${i}`)))
    expect((await s.list('')).map((e) => e.name)).toEqual(['m.json'])
    await s.linkOrCopy('m.json', 'snap/m.json')
    expect(statSync(join(root, 'm.json')).ino).toBe(statSync(join(root, 'snap/m.json')).ino)
    await expect(s.readText('../outside')).rejects.toThrow('path escapes the results root')
  })

  it('makes a new folder once for many writes at once, and again when it (and its parent) went away behind its back', async () => {
    const root = join(tmp, 'folders')
    const s = new NodeFsStorage(root)
    // 16 writes into one new nested folder at once, as a task folder is written: each must land.
    const files = Array.from({ length: 16 }, (_, i) => `exp/tasks/00001__a/trajectories/run_${i}.json`)
    await Promise.all(files.map((f, i) => s.writeTextUnpublished!(f, `r${i}`)))
    expect((await s.list('exp/tasks/00001__a/trajectories')).length).toBe(16)
    await s.writeTextAtomic('exp/tasks/00001__a/task.json', 't')
    rmSync(join(root, 'exp', 'tasks'), { recursive: true, force: true })
    // The folder this storage made is gone, and so is a sibling's parent: both writes make what they need again.
    await s.writeTextUnpublished!('exp/tasks/00001__a/trajectories/run_0.json', 'again')
    await s.writeTextAtomic('exp/tasks/00002__b/task.json', 'new')
    expect(await s.readText('exp/tasks/00001__a/trajectories/run_0.json')).toBe('again')
    expect(await s.readText('exp/tasks/00002__b/task.json')).toBe('new')
  })
})
