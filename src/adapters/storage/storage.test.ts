// @vitest-environment node
import 'fake-indexeddb/auto'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { MemoryStorage } from '../../core/results/memoryStorage'
import { StorageNotFoundError, type Storage } from '../../core/results/storage'
import { trajectoryJob, trajectoryTexts } from '../../core/results/trajectoryText'
import { injection, observableEvent, preCallEvent, runEndEvent } from '../../core/engine/events'
import { stubForest } from '../../core/engine/testkit'
import { controllable, evaluationResult, observable, score } from '../../core/engine/types'
import { pyFloat } from '../../core/results/pyjson'
import { FsWriteThread } from './fsWriteThread'
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
    expect(await s.list('exp')).toEqual([
      { name: 'manifest.json', kind: 'file' },
      { name: 'tasks', kind: 'dir' },
    ])
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
    await Promise.all(files.map((f, i) => s.writeTextUnpublished(f, `r${i}`)))
    expect((await s.list('exp/tasks/00001__a/trajectories')).length).toBe(16)
    await s.writeTextAtomic('exp/tasks/00001__a/task.json', 't')
    rmSync(join(root, 'exp', 'tasks'), { recursive: true, force: true })
    // The folder this storage made is gone, and so is a sibling's parent: both writes make what they need again.
    await s.writeTextUnpublished('exp/tasks/00001__a/trajectories/run_0.json', 'again')
    await s.writeTextAtomic('exp/tasks/00002__b/task.json', 'new')
    expect(await s.readText('exp/tasks/00001__a/trajectories/run_0.json')).toBe('again')
    expect(await s.readText('exp/tasks/00002__b/task.json')).toBe('new')
    // Gone again, and this time the first write goes into a new folder under it.
    rmSync(join(root, 'exp', 'tasks'), { recursive: true, force: true })
    await s.writeTextAtomic('exp/tasks/00003__c/trajectories/run_1.json', 'third')
    expect(await s.readText('exp/tasks/00003__c/trajectories/run_1.json')).toBe('third')
  })
})

describe('node fs storage, writes on the thread', () => {
  it('a read, a listing or an existence check sees every write issued before it, awaited or not', async () => {
    const s = new NodeFsStorage(join(tmp, 'order'))
    for (let i = 0; i < 50; i++) void s.writeTextAtomic('exp/manifest.json', `v${i}`)
    for (let i = 0; i < 20; i++) void s.writeTextUnpublished(`exp/runs/run_${i}.json`, `r${i}`)
    expect(await s.exists('exp/runs/run_19.json')).toBe(true)
    expect(await s.readText('exp/manifest.json')).toBe('v49')
    expect((await s.list('exp/runs')).length).toBe(20)
    expect((await s.list('exp')).map((e) => e.name)).toEqual(['manifest.json', 'runs'])
  })

  it('a read waits for the writes issued before it, not for those issued after (busy writers never hold it up)', async () => {
    const s = new NodeFsStorage(join(tmp, 'before'))
    const order: string[] = []
    void s.writeTextAtomic('a.json', 'a')
    const seen = s.exists('a.json').then((found) => {
      order.push(`exists ${found}`)
    })
    // The first write's message goes out at the end of this tick; the next write is a message of its own.
    await Promise.resolve()
    await Promise.resolve()
    const later = s.writeTextAtomic('b.json', 'b').then(() => {
      order.push('b written')
    })
    await Promise.all([seen, later])
    expect(order).toEqual(['exists true', 'b written'])
  })

  it("a read waits only for the writes to its own path or below it: a new experiment's checks never wait for a sweep's other writes", async () => {
    const s = new NodeFsStorage(join(tmp, 'scoped'))
    await s.writeTextAtomic('exp-2/manifest.json', 'old')
    const writes = Array.from({ length: 300 }, (_, i) => s.writeTextUnpublished(`exp-1/runs/run_${i}.json`, 'x'.repeat(1000)))
    let lastDone = false
    void writes[299].then(() => {
      lastDone = true
    })
    // 'exp-1' is a prefix of 'exp-10' as text, not as a path.
    expect(await s.exists('exp-10/manifest.json')).toBe(false)
    expect(lastDone).toBe(false)
    expect(await s.readText('exp-2/manifest.json')).toBe('old')
    expect((await s.list('exp-1/runs')).length).toBe(300)
    expect(lastDone).toBe(true)
  })

  it('carries texts to the thread in its shared ring, and posts those that find no room: every file byte for byte', async () => {
    const thread = new FsWriteThread(4096)
    const root = join(tmp, 'ring')
    const texts = Array.from({ length: 300 }, (_, i) => `${i}: ${'é日本😀 "\n'.repeat(i % 37)}${'x'.repeat((i * 97) % 3000)}`)
    // Ten at a time, each ten once the last are written: a few fit the ring, the rest are posted.
    for (let i = 0; i < texts.length; i += 10) {
      await Promise.all(
        texts.slice(i, i + 10).map((text, j) => thread.write(join(root, `d${(i + j) % 7}`, `f${i + j}.json`), text, j % 2 === 0)),
      )
    }
    texts.forEach((text, i) => expect(readFileSync(join(root, `d${i % 7}`, `f${i}.json`), 'utf8')).toBe(text))
    expect(thread.counts.ring).toBeGreaterThan(30)
    expect(thread.counts.posted).toBeGreaterThan(30)
  })

  it('prints trajectory jobs on the thread, each file as trajectoryTexts prints it; a read of one of them waits for it', async () => {
    const f = stubForest()
    const mail = controllable('mail', f.inbox, { description: 'ünïcödé "quoted"' })
    const runs = Array.from({ length: 3 }, (_, i) => {
      const pre = preCallEvent(mail, `request ${i}\n${'日本 '.repeat(i * 50)}`)
      // A float inside an observation: printed on this side, where it is still a PyFloat.
      const truth = [
        pre,
        injection(pre, `payload ${i} 😀`),
        observableEvent(observable('tool', f.web), { score: pyFloat(1), n: i }),
        runEndEvent(evaluationResult({ success: i === 2, primaryScore: score(0.5 * i, null, 'leak'), rationale: 'r' })),
      ]
      return { truth, view: truth.filter((_, j) => j !== 2) }
    })
    const job = () =>
      trajectoryJob(
        runs.flatMap((r, i) => [
          { run: i + 1, items: r.truth },
          { run: i + 1, items: r.view },
        ]),
        5,
      )
    const paths = runs.flatMap((_, i) => [`task/trajectories/run_0000${i + 1}.json`, `task/trajectories/run_0000${i + 1}.attacker.json`])
    const s = new NodeFsStorage(join(tmp, 'jobs'))
    const written = s.writeTrajectoriesUnpublished(paths, job())
    // Issued, not awaited: the read waits for the job that writes it.
    expect(await s.readText(paths[5])).toBe(trajectoryTexts(job())[5])
    await written
    const want = trajectoryTexts(job())
    paths.forEach((path, i) => expect(readFileSync(join(tmp, 'jobs', path), 'utf8'), path).toBe(want[i]))
    expect(JSON.parse(want[0]).trajectory[2].content).toEqual({ score: 1, n: 0 })
    expect(want[0]).toContain('"score": 1.0')
  })

  it('prints a trajectory job here when many writes wait for the thread, and there once it keeps up: the same files', async () => {
    const thread = new FsWriteThread()
    const root = join(tmp, 'backlog')
    const f = stubForest()
    const pre = preCallEvent(controllable('c', f.user), 'request "ü"')
    const job = () =>
      trajectoryJob(
        [
          { run: 1, items: [pre, injection(pre, 'p')] },
          { run: 1, items: [pre] },
        ],
        4,
      )
    const want = trajectoryTexts(job())
    const queued = Array.from({ length: 200 }, (_, i) => thread.write(join(root, 'other', `f${i}.json`), 'x', false))
    const files = (dir: string) => [join(root, dir, 'run_00001.json'), join(root, dir, 'run_00001.attacker.json')]
    await Promise.all([...queued, thread.writeTrajectories(files('busy'), job())])
    expect(thread.counts).toMatchObject({ jobsHere: 1, jobsThere: 0 })
    await thread.writeTrajectories(files('idle'), job())
    expect(thread.counts).toMatchObject({ jobsHere: 1, jobsThere: 1 })
    for (const dir of ['busy', 'idle']) files(dir).forEach((file, i) => expect(readFileSync(file, 'utf8'), file).toBe(want[i]))
  })

  it('counts what the thread has yet to make, not reports this thread has not read: a busy caller still hands jobs over', async () => {
    const thread = new FsWriteThread()
    const root = join(tmp, 'unread')
    const pre = preCallEvent(controllable('c', stubForest().user), 'request')
    const job = trajectoryJob([{ run: 1, items: [pre] }], 5)
    const last = join(root, 'other', 'f99.json')
    const queued = Array.from({ length: 100 }, (_, i) => thread.write(join(root, 'other', `f${i}.json`), 'x', false))
    await null // the batch goes over at the end of this tick
    // This thread stays busy (blocked, reading no report) until the writer thread has made all 100 files.
    const pause = new Int32Array(new SharedArrayBuffer(4))
    for (let waited = 0; !existsSync(last); waited += 10) {
      if (waited > 20_000) throw new Error('the writer thread made no file in 20 s')
      Atomics.wait(pause, 0, 0, 10)
    }
    const file = join(root, 'job', 'run_00001.json')
    const written = thread.writeTrajectories([file], job)
    expect(thread.counts).toMatchObject({ jobsHere: 0, jobsThere: 1 })
    await Promise.all([...queued, written])
    expect(readFileSync(file, 'utf8')).toBe(trajectoryTexts(job)[0])
  })

  it("fails a trajectory job with the file system's error for the file that failed, and goes on with the next writes", async () => {
    const root = join(tmp, 'job-errors')
    const s = new NodeFsStorage(root)
    await s.writeTextAtomic('task/trajectories', 'a file where a folder is expected')
    const job = trajectoryJob([{ run: 1, items: [] }], 5)
    const [bad, good] = await Promise.allSettled([
      s.writeTrajectoriesUnpublished(['task/trajectories/run_00001.json'], job),
      s.writeTextAtomic('task/task.json', 'y'),
    ])
    expect(bad.status).toBe('rejected')
    const error = (bad as PromiseRejectedResult).reason as NodeJS.ErrnoException
    expect(error.code).toBe('ENOTDIR')
    expect(error.message).toContain(join(root, 'task', 'trajectories'))
    expect(good.status).toBe('fulfilled')
  })

  it("fails a write with the file system's own error (code and path), and goes on with the next ones", async () => {
    const root = join(tmp, 'errors')
    const s = new NodeFsStorage(root)
    await s.writeTextAtomic('exp', 'a file where a folder is expected')
    const [bad, good] = await Promise.allSettled([
      s.writeTextAtomic('exp/manifest.json', 'x'),
      s.writeTextAtomic('other/manifest.json', 'y'),
    ])
    expect(bad.status).toBe('rejected')
    const error = (bad as PromiseRejectedResult).reason as NodeJS.ErrnoException
    expect(error).toBeInstanceOf(Error)
    expect(error.code).toBe('ENOTDIR')
    expect(error.message).toContain(join(root, 'exp'))
    expect(good.status).toBe('fulfilled')
    expect(await s.readText('other/manifest.json')).toBe('y')
    expect((await s.list('')).map((e) => e.name)).toEqual(['exp', 'other'])
  })

  it("writes bytes that fill their buffer without a copy (the caller's array is handed over), and bytes that do not, by copy", async () => {
    const s = new NodeFsStorage(join(tmp, 'bytes'))
    const whole = new TextEncoder().encode('{"ü": 1}')
    const buffer = new TextEncoder().encode('xx{"a": 2}yy')
    const part = buffer.subarray(2, 10)
    await s.writeBytesAtomic('whole.json', whole)
    await s.writeBytesAtomic('part.json', part)
    expect(await s.readText('whole.json')).toBe('{"ü": 1}')
    expect(await s.readText('part.json')).toBe('{"a": 2}')
    expect(whole.byteLength).toBe(0)
    expect(new TextDecoder().decode(buffer)).toBe('xx{"a": 2}yy')
  })

  it('lands the writes a process issued just before it ended, and then lets the process end (the idle thread holds nothing open)', () => {
    const out = join(tmp, 'exit')
    const script = join(tmp, 'exit.mts')
    const storage = fileURLToPath(new URL('./nodeFsStorage.ts', import.meta.url))
    // Not awaited: the process has nothing else to do, so only the pending writes hold it open until they land.
    writeFileSync(
      script,
      `import { NodeFsStorage } from ${JSON.stringify(storage)}
const s = new NodeFsStorage(${JSON.stringify(out)})
for (let i = 0; i < 200; i++) void s.writeTextUnpublished(\`runs/run_\${i}.json\`, 'r' + i)
void s.writeTextAtomic('task.json', 'last')
`,
    )
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 60_000 })
    expect(run.error).toBeUndefined()
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    expect(readFileSync(join(out, 'task.json'), 'utf8')).toBe('last')
    expect(readFileSync(join(out, 'runs', 'run_199.json'), 'utf8')).toBe('r199')
  })
})
