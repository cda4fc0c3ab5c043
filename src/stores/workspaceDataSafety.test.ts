/**
 * Data safety of workspaces in IndexedDB (fake-indexeddb here; the real one in
 * e2e/data-safety.spec.ts): older records migrate, newer ones are left alone
 * and named, and a write the storage refuses (quota) is reported, then saved
 * again at the next edit.
 */
import 'fake-indexeddb/auto'
import { openDB } from 'idb'
import { docFromForest } from '../core/model'
import { CHATBOT_FOREST } from '../core/tags'
import { createDesignerStore } from './designerStore'
import { newTagId } from './ids'
import { memoryWorkspaceRepo, openWorkspaceRepo } from './workspaceRepo'
import { migrateWorkspaceRecord, WORKSPACE_VERSION } from './workspaceMigrations'
import { createWorkspaceService, describeSaveError } from './workspaceService'
import { createWorkspaceStore } from './workspaceStore'
import { newRecord, workspaceIdOf } from './workspaceTypes'

const seed = () => ({ name: 'Chatbot', doc: docFromForest(CHATBOT_FOREST, newTagId) })

/** A record as a redscope before versioning would have stored it: no v, no readOnly, models or target. */
const v0 = {
  id: 'old-1',
  name: 'From the first prototype',
  createdAt: 1_000,
  doc: {
    tags: [
      { id: 't1', name: 'system', parent: null, description: 'the system' },
      { id: 't2', name: 'user', parent: null, description: '' },
    ],
    scope: ['t2'],
  },
}

describe('workspace versions', () => {
  it('migrates an unversioned record step by step, without changing the input', () => {
    const before = structuredClone(v0)
    const m = migrateWorkspaceRecord(v0)
    expect(m).toMatchObject({
      ok: true,
      from: 0,
      record: { v: WORKSPACE_VERSION, doc: { scope: ['t2'], readOnly: [] }, models: [], target: null, updatedAt: 1_000 },
    })
    expect(v0).toEqual(before)
    expect(migrateWorkspaceRecord({ ...v0, v: 1 })).toMatchObject({ ok: true, from: 1 })
    expect(migrateWorkspaceRecord({ ...v0, v: 7 })).toEqual({
      ok: false,
      reason: 'saved by a newer redscope (version 7; this one reads up to 2)',
    })
    expect(migrateWorkspaceRecord({ ...v0, v: 'x' })).toEqual({ ok: false, reason: 'unknown version "x"' })
  })

  it('an older record in IndexedDB opens migrated; a newer one is named and left untouched; the next save writes the current version', async () => {
    const name = 'migrate-1'
    const repo = await openWorkspaceRepo(name)
    const db = await openDB(name, 1)
    const newer = {
      ...v0,
      id: 'new-1',
      v: 9,
      name: 'from the future',
      updatedAt: 2,
      models: [],
      target: null,
      doc: { ...v0.doc, readOnly: [] },
    }
    await db.put('workspaces', v0)
    await db.put('workspaces', newer)
    const { records, damaged } = await repo.list()
    expect(records.map((r) => [r.id, r.v, r.doc.readOnly])).toEqual([['old-1', 2, []]])
    expect(damaged).toEqual(['new-1: saved by a newer redscope (version 9; this one reads up to 2)'])

    const designer = createDesignerStore()
    const workspaces = createWorkspaceStore()
    const service = createWorkspaceService(repo, designer, workspaces)
    await service.boot(seed)
    expect(workspaces.getState().name).toBe('From the first prototype')
    expect(designer.getState().history.present.tags.map((t) => t.name)).toEqual(['system', 'user'])
    // Opening is not an edit: the stored copy stays version 0 until the user changes something.
    expect(await db.get('workspaces', 'old-1')).toEqual(v0)
    designer.getState().dispatch({ type: 'renameTag', id: designer.getState().history.present.tags[1].id, name: 'user_message' })
    await service.flush()
    expect(await db.get('workspaces', 'old-1')).toMatchObject({
      v: 2,
      doc: { readOnly: [], tags: expect.stringContaining('"user_message"') },
    })
    expect(await db.get('workspaces', 'new-1')).toEqual(newer)
    service.stop()
    db.close()
  })

  it('stores the tag list as one JSON text, and reads back the document it was printed from', async () => {
    const name = 'text-1'
    const repo = await openWorkspaceRepo(name)
    const db = await openDB(name, 1)
    const doc = docFromForest(CHATBOT_FOREST, newTagId)
    const record = newRecord(workspaceIdOf('w-1'), 'Chatbot', { ...doc, scope: [doc.tags[1].id] })
    await repo.put(record)
    const stored = await db.get('workspaces', 'w-1')
    expect(typeof stored.doc.tags).toBe('string')
    expect(JSON.parse(stored.doc.tags)).toEqual(doc.tags)
    expect(await repo.get(record.id)).toEqual(record)
    // A scope edit keeps its list (and its text); a renamed tag is a new list, stored as its own text.
    const scoped = { ...record, doc: { ...record.doc, scope: [] } }
    await repo.put(scoped)
    expect(await repo.get(record.id)).toEqual(scoped)
    const renamed = { ...scoped, doc: { ...scoped.doc, tags: scoped.doc.tags.map((t, i) => (i === 0 ? { ...t, name: 'renamed' } : t)) } }
    await repo.put(renamed)
    expect((await repo.get(record.id))!.doc.tags[0].name).toBe('renamed')
    expect(JSON.parse((await db.get('workspaces', 'w-1')).doc.tags)[0].name).toBe('renamed')
    db.close()
  })
})

describe('a full storage', () => {
  it('an autosave the storage refuses is reported at once; the next edit saves again and says so', async () => {
    const repo = memoryWorkspaceRepo()
    let full = false
    const put = repo.put
    repo.put = async (r) => {
      if (full) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError')
      return put(r)
    }
    const errors: string[] = []
    let recovered = 0
    const designer = createDesignerStore()
    const workspaces = createWorkspaceStore()
    const service = createWorkspaceService(repo, designer, workspaces, {
      onSaveError: (e) => errors.push(describeSaveError(e)),
      onSaveRecovered: () => recovered++,
    })
    await service.boot(seed)
    const user = designer.getState().history.present.tags.find((t) => t.name === 'user')!.id

    full = true
    designer.getState().dispatch({ type: 'renameTag', id: user, name: 'lost?' })
    await service.flush()
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/^Not saved: this browser's storage for redscope is full \(QuotaExceededError\)/)
    expect([...repo.records.values()][0].doc.tags.map((t) => t.name)).not.toContain('lost?')

    full = false
    designer.getState().dispatch({ type: 'setAccess', ids: [user], access: 'scope' })
    await service.flush()
    expect(recovered).toBe(1)
    const saved = [...repo.records.values()][0]
    expect(saved.doc.tags.map((t) => t.name)).toContain('lost?')
    expect(saved.doc.scope).toEqual([user])
    service.stop()
  })
})
