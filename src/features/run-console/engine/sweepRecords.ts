/**
 * A sweep's record: which threat models it ran (their experiment folders,
 * scopes and combination indices) over which forest, so that the sweep's
 * grid and painted forest come back after a reload and the whole sweep can
 * be downloaded. Kept in its own IndexedDB database beside the results;
 * parsed with zod when read.
 */
import { z } from 'zod'
import { ForestSchema } from '../../../core/tags'
import { sweepsStorage } from './resultsStorage'

export const SweepRecordSchema = z.object({
  v: z.literal(1),
  id: z.string().regex(/^[A-Za-z0-9_-]+$/),
  createdAt: z.number(),
  title: z.string(),
  target: z.string(),
  claim: z.string(),
  attacker: z.string(),
  forest: ForestSchema,
  models: z.array(z.object({ dir: z.string(), index: z.string(), scope: z.array(z.string()), readOnly: z.array(z.string()) })),
})
export type SweepRecord = z.infer<typeof SweepRecordSchema>

export async function saveSweep(record: SweepRecord): Promise<void> {
  await sweepsStorage().writeTextAtomic(`${record.id}.json`, JSON.stringify(record))
}

export async function readSweep(id: string): Promise<SweepRecord> {
  const parsed = SweepRecordSchema.safeParse(JSON.parse(await sweepsStorage().readText(`${id}.json`)))
  if (!parsed.success) throw new Error(`sweep ${id}: its record in this browser is damaged (${parsed.error.issues[0]?.message ?? 'unreadable'})`)
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
