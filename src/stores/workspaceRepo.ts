/**
 * Where workspaces live: IndexedDB through idb. One object store of workspace
 * records and one of settings (which workspace is open). Reads are migrated
 * from older versions (workspaceMigrations.ts) and parsed (WorkspaceRecordSchema):
 * an entry that still does not parse, or comes from a newer version, is
 * reported by id and left untouched on disk, never overwritten.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb'
import { migrateWorkspaceRecord } from './workspaceMigrations'
import { storedRecord, WorkspaceRecordSchema, type WorkspaceId, type WorkspaceRecord } from './workspaceTypes'

interface RedscopeDb extends DBSchema {
  workspaces: { key: string; value: unknown }
  settings: { key: string; value: unknown }
}

export interface WorkspaceRepo {
  list(): Promise<{ records: WorkspaceRecord[]; damaged: string[] }>
  get(id: WorkspaceId): Promise<WorkspaceRecord | undefined>
  put(record: WorkspaceRecord): Promise<void>
  delete(id: WorkspaceId): Promise<void>
  getActive(): Promise<string | undefined>
  setActive(id: WorkspaceId): Promise<void>
}

export const DB_NAME = 'redscope'

export async function openWorkspaceRepo(name = DB_NAME): Promise<WorkspaceRepo> {
  const db: IDBPDatabase<RedscopeDb> = await openDB<RedscopeDb>(name, 1, {
    // One step per database version, so a later version adds its stores without touching these.
    upgrade(d, oldVersion) {
      if (oldVersion < 1) {
        d.createObjectStore('workspaces', { keyPath: 'id' })
        d.createObjectStore('settings')
      }
    },
  })
  const parse = (raw: unknown) => {
    const migrated = migrateWorkspaceRecord(raw)
    if (!migrated.ok) return undefined
    const r = WorkspaceRecordSchema.safeParse(migrated.record)
    return r.success ? r.data : undefined
  }
  /** Why a record that does not parse was left alone, for the notice. */
  const why = (raw: unknown) => {
    const id = String((raw as { id?: unknown })?.id ?? '?')
    const migrated = migrateWorkspaceRecord(raw)
    return migrated.ok ? id : `${id}: ${migrated.reason}`
  }
  return {
    async list() {
      const raw = await db.getAll('workspaces')
      const records: WorkspaceRecord[] = []
      const damaged: string[] = []
      for (const r of raw) {
        const ok = parse(r)
        if (ok) records.push(ok)
        else damaged.push(why(r))
      }
      records.sort((a, b) => a.createdAt - b.createdAt)
      return { records, damaged }
    },
    async get(id) {
      return parse(await db.get('workspaces', id))
    },
    async put(record) {
      await db.put('workspaces', storedRecord(record))
    },
    async delete(id) {
      await db.delete('workspaces', id)
    },
    async getActive() {
      const v = await db.get('settings', 'activeWorkspace')
      return typeof v === 'string' ? v : undefined
    },
    async setActive(id) {
      await db.put('settings', id, 'activeWorkspace')
    },
  }
}

/** An in-memory repo with the same contract, for tests. */
export function memoryWorkspaceRepo(): WorkspaceRepo & { records: Map<string, WorkspaceRecord> } {
  const records = new Map<string, WorkspaceRecord>()
  let active: string | undefined
  return {
    records,
    list: async () => ({ records: [...records.values()].sort((a, b) => a.createdAt - b.createdAt), damaged: [] }),
    get: async (id) => structuredClone(records.get(id)),
    put: async (r) => void records.set(r.id, structuredClone(r)),
    delete: async (id) => void records.delete(id),
    getActive: async () => active,
    setActive: async (id) => void (active = id),
  }
}
