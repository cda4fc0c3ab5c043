import 'fake-indexeddb/auto'
import { openDB } from 'idb'
import { docFromForest, tagIdOf } from '../core/model'
import { CHATBOT_FOREST } from '../core/tags'
import { createDesignerStore } from './designerStore'
import { newTagId } from './ids'
import { memoryWorkspaceRepo, openWorkspaceRepo, type WorkspaceRepo } from './workspaceRepo'
import { createWorkspaceService } from './workspaceService'
import { createWorkspaceStore } from './workspaceStore'

const seed = () => ({ name: 'Chatbot', doc: docFromForest(CHATBOT_FOREST, newTagId) })

/** A fresh "page": new stores over the same repository, as after a reload. */
async function page(repo: WorkspaceRepo) {
  const designer = createDesignerStore()
  const workspaces = createWorkspaceStore()
  const service = createWorkspaceService(repo, designer, workspaces)
  await service.boot(seed)
  return { designer, workspaces, service, doc: () => designer.getState().history.present }
}

describe('workspaces and autosave (IndexedDB)', () => {
  let dbName = 0
  const idb = () => openWorkspaceRepo(`test-${++dbName}`)

  it('seeds the first workspace, and a reload finds every edit, scope and read_only included', async () => {
    const repo = await idb()
    const a = await page(repo)
    expect(a.workspaces.getState().name).toBe('Chatbot')
    const user = a.doc().tags.find((t) => t.name === 'user')!.id
    const sp = a.doc().tags.find((t) => t.name === 'system_prompt')!.id
    a.designer.getState().dispatch({ type: 'renameTag', id: user, name: 'user_message' })
    a.designer.getState().dispatch({ type: 'setAccess', ids: [user], access: 'scope' })
    a.designer.getState().dispatch({ type: 'setAccess', ids: [sp], access: 'read_only' })
    a.workspaces.getState().saveModel('Blind user', { scope: [user], readOnly: [] }, "the guide's first example")
    await a.service.flush()
    a.service.stop()

    const b = await page(repo)
    expect(b.doc()).toEqual(a.doc())
    expect(b.doc().tags.map((t) => t.name)).toContain('user_message')
    expect(b.doc().scope).toEqual([user])
    expect(b.doc().readOnly).toEqual([sp])
    expect(b.workspaces.getState().models.map((m) => [m.name, m.notes])).toEqual([['Blind user', "the guide's first example"]])
    b.service.stop()
  })

  it('lists several workspaces, switches between them and reopens the last one used', async () => {
    const repo = await idb()
    const a = await page(repo)
    const first = a.workspaces.getState().activeId!
    const second = await a.service.create('Empty', { tags: [], scope: [], readOnly: [] })
    a.designer.getState().dispatch({ type: 'addTag', tag: { id: tagIdOf('x'), name: 'only', parent: null, description: '' } })
    expect(a.workspaces.getState().workspaces.map((w) => w.name)).toEqual(['Chatbot', 'Empty'])
    await a.service.open(first)
    expect(a.doc().tags).toHaveLength(5)
    await a.service.open(second)
    expect(a.doc().tags.map((t) => t.name)).toEqual(['only'])
    await a.service.flush()
    a.service.stop()
    const b = await page(repo)
    expect(b.workspaces.getState().activeId).toBe(second)
    expect(b.workspaces.getState().workspaces.map((w) => [w.name, w.tagCount])).toEqual([
      ['Chatbot', 5],
      ['Empty', 1],
    ])
    b.service.stop()
  })

  it('reads any workspace without opening it: the open one with its unsaved edits, another from disk', async () => {
    const repo = await idb()
    const a = await page(repo)
    const first = a.workspaces.getState().activeId!
    a.workspaces.getState().saveModel('Blind user', { scope: [a.doc().tags.find((t) => t.name === 'user')!.id], readOnly: [] })
    const second = await a.service.create('Empty', { tags: [], scope: [], readOnly: [] })
    a.designer.getState().dispatch({ type: 'addTag', tag: { id: tagIdOf('x'), name: 'only', parent: null, description: '' } })
    // Not flushed yet: the open workspace's record is read from the stores, not from disk.
    expect((await a.service.read(second))!.doc.tags.map((t) => t.name)).toEqual(['only'])
    const other = (await a.service.read(first))!
    expect(other.name).toBe('Chatbot')
    expect(other.models.map((m) => m.name)).toEqual(['Blind user'])
    // Reading is not opening: the designer still shows the second workspace.
    expect(a.workspaces.getState().activeId).toBe(second)
    expect(await a.service.read('nope' as typeof first)).toBeUndefined()
    a.service.stop()
  })

  it('renames and deletes workspaces; deleting the last one leaves an empty one', async () => {
    const repo = memoryWorkspaceRepo()
    const a = await page(repo)
    const id = a.workspaces.getState().activeId!
    await a.service.rename(id, 'Renamed')
    await a.service.flush()
    expect(repo.records.get(id)!.name).toBe('Renamed')
    await a.service.remove(id)
    expect(repo.records.has(id)).toBe(false)
    expect(a.workspaces.getState().workspaces.map((w) => w.name)).toEqual(['Untitled workspace'])
    expect(a.doc().tags).toEqual([])
    a.service.stop()
  })

  it('opening a workspace is not an edit: nothing is rewritten', async () => {
    const repo = memoryWorkspaceRepo()
    const a = await page(repo)
    const id = a.workspaces.getState().activeId!
    const before = repo.records.get(id)!.updatedAt
    await a.service.create('Other', { tags: [], scope: [], readOnly: [] })
    await new Promise((r) => setTimeout(r, 5))
    await a.service.open(id)
    await a.service.flush()
    expect(repo.records.get(id)!.updatedAt).toBe(before)
    a.service.stop()
  })

  it('undo and redo are saved too', async () => {
    const repo = memoryWorkspaceRepo()
    const a = await page(repo)
    const id = a.workspaces.getState().activeId!
    const user = a.doc().tags.find((t) => t.name === 'user')!.id
    a.designer.getState().dispatch({ type: 'deleteTags', ids: [user] })
    await a.service.flush()
    expect(repo.records.get(id)!.doc.tags).toHaveLength(4)
    a.designer.getState().undo()
    await a.service.flush()
    expect(repo.records.get(id)!.doc.tags).toHaveLength(5)
    a.service.stop()
  })

  it('with a deferred scheduler: edits wait for it, coalesce into one write, and flush writes them at once', async () => {
    const repo = memoryWorkspaceRepo()
    let puts = 0
    const counting: WorkspaceRepo = {
      ...repo,
      put: (r) => {
        puts++
        return repo.put(r)
      },
    }
    const waiting: Array<() => void> = []
    const designer = createDesignerStore()
    const service = createWorkspaceService(counting, designer, createWorkspaceStore(), undefined, (run) => waiting.push(run))
    await service.boot(seed)
    const id = [...repo.records.keys()][0]
    const before = puts
    const user = designer.getState().history.present.tags.find((t) => t.name === 'user')!.id
    designer.getState().dispatch({ type: 'setAccess', ids: [user], access: 'scope' })
    designer.getState().dispatch({ type: 'setAccess', ids: [user], access: 'read_only' })
    await Promise.resolve()
    expect(puts).toBe(before)
    expect(waiting).toHaveLength(1)
    waiting.shift()!()
    expect(puts).toBe(before + 1)
    await service.flush()
    expect(repo.records.get(id)!.doc.readOnly).toEqual([user])

    designer.getState().dispatch({ type: 'setAccess', ids: [user], access: 'none' })
    await service.flush()
    expect(puts).toBe(before + 2)
    expect(repo.records.get(id)!.doc.readOnly).toEqual([])
    // The scheduler's turn comes later and finds nothing left to write.
    waiting.shift()!()
    expect(puts).toBe(before + 2)
    service.stop()
  })

  it('reports a damaged entry instead of failing, and leaves it on disk', async () => {
    const name = `test-${++dbName}`
    const repo = await openWorkspaceRepo(name)
    const a = await page(repo)
    a.service.stop()
    const db = await openDB(name, 1)
    await db.put('workspaces', { id: 'broken', v: 99 })
    await db.put('workspaces', {
      ...(await db.get('workspaces', a.workspaces.getState().activeId!)),
      id: 'garbled',
      doc: { tags: '[{"id": "t1", ', scope: [], readOnly: [] },
    })
    const { damaged } = await createWorkspaceService(repo, createDesignerStore(), createWorkspaceStore()).boot(seed)
    expect(damaged.sort()).toEqual(['broken: saved by a newer redscope (version 99; this one reads up to 2)', 'garbled'])
    expect(await db.get('workspaces', 'garbled')).toMatchObject({ doc: { tags: '[{"id": "t1", ' } })
  })
})
