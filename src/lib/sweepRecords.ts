/**
 * This browser's sweep records (src/core/sweep/record.ts): which threat
 * models a sweep ran over which forest, so that the sweep's grid and painted
 * forest come back after a reload and the whole sweep can be downloaded.
 * Kept in their own IndexedDB database beside the results; parsed with zod
 * when read.
 */
import { SweepRecordSchema, type SweepRecord } from '../core/sweep'
import { sweepsStorage } from './browserResults'

// One definition of the record, in the engine: `redscope sweep` writes the same file.
export { SweepRecordSchema, type SweepRecord }

export async function saveSweep(record: SweepRecord): Promise<void> {
  await sweepsStorage().writeTextAtomic(`${record.id}.json`, JSON.stringify(record))
}

export async function readSweep(id: string): Promise<SweepRecord> {
  const parsed = SweepRecordSchema.safeParse(JSON.parse(await sweepsStorage().readText(`${id}.json`)))
  if (!parsed.success)
    throw new Error(`sweep ${id}: its record in this browser is damaged (${parsed.error.issues[0]?.message ?? 'unreadable'})`)
  return parsed.data
}

/** Every readable sweep record, newest first (damaged ones are skipped, not fatal). */
export async function listSweeps(): Promise<SweepRecord[]> {
  const storage = sweepsStorage()
  const out: SweepRecord[] = []
  for (const entry of await storage.list('')) {
    if (entry.kind !== 'file' || !entry.name.endsWith('.json')) continue
    try {
      const parsed = SweepRecordSchema.safeParse(JSON.parse(await storage.readText(entry.name)))
      if (parsed.success) out.push(parsed.data)
    } catch {
      // A record that is not JSON is left alone.
    }
  }
  return out.sort((a, b) => b.createdAt - a.createdAt)
}

export async function deleteSweep(id: string): Promise<void> {
  await sweepsStorage().remove(`${id}.json`)
}
