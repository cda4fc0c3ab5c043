/**
 * Workspace records are versioned (`v`). A record of an older version is
 * brought up to the current one, step by step, before it is parsed; the
 * stored copy is left as it is until the next autosave writes the current
 * version, so a failed migration never costs the original. A record of a
 * newer version (written by a later redscope) is not guessed at: it is
 * reported and left untouched.
 *
 * Version 0 is a record from before versioning (no `v`, and a document
 * without `readOnly`, no saved models or target); it is the path every later
 * step follows. Version 2 stores the document's tag list as its JSON text
 * (see storedRecord); a version-1 list is read as the list it is.
 */
export const WORKSPACE_VERSION = 2

type Raw = Record<string, unknown>

/** STEPS[n] turns a version-n record into a version-(n+1) record. */
const STEPS: Record<number, (r: Raw) => Raw> = {
  0: (r) => {
    const doc = (r.doc ?? {}) as Raw
    return {
      ...r,
      v: 1,
      doc: { tags: doc.tags ?? [], scope: doc.scope ?? [], readOnly: doc.readOnly ?? [] },
      models: r.models ?? [],
      target: r.target ?? null,
      updatedAt: r.updatedAt ?? r.createdAt,
    }
  },
  1: (r) => ({ ...r, v: 2 }),
}

export type Migrated =
  { readonly ok: true; readonly record: unknown; readonly from: number } | { readonly ok: false; readonly reason: string }

/** The record at the current version, or why it cannot be read. Pure: the input is not changed. */
export function migrateWorkspaceRecord(raw: unknown): Migrated {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, reason: 'not a workspace record' }
  let record = raw as Raw
  const from = record.v === undefined ? 0 : record.v
  if (typeof from !== 'number' || !Number.isInteger(from) || from < 0)
    return { ok: false, reason: `unknown version ${JSON.stringify(record.v)}` }
  if (from > WORKSPACE_VERSION) {
    return { ok: false, reason: `saved by a newer redscope (version ${from}; this one reads up to ${WORKSPACE_VERSION})` }
  }
  for (let v = from; v < WORKSPACE_VERSION; v++) record = STEPS[v](record)
  return { ok: true, record, from }
}
