/**
 * This browser's frontier searches (the Run page's "Find the weakest winning
 * attacker"): each kept as the frontier.json `redscope frontier` writes, with
 * an id, a title and a date, in their own IndexedDB database beside the runs,
 * so the answer is listed in the Results tab and survives a reload. Rewritten
 * after every evaluation, as the CLI rewrites its file: a search stopped by a
 * closed tab keeps what it found. Parsed with zod when read.
 */
import { z } from 'zod'
import { FrontierFileSchema } from '../core/frontier'
import { frontiersStorage } from './browserResults'

export const FrontierRecordSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9-]+$/),
  title: z.string(),
  createdAt: z.number(),
  file: FrontierFileSchema,
})
export type FrontierRecord = z.infer<typeof FrontierRecordSchema>
export type FrontierRecordInput = z.input<typeof FrontierRecordSchema>

export async function saveFrontier(record: FrontierRecordInput): Promise<void> {
  await frontiersStorage().writeTextAtomic(`${record.id}.json`, JSON.stringify(record))
}

export async function readFrontier(id: string): Promise<FrontierRecord> {
  const parsed = FrontierRecordSchema.safeParse(JSON.parse(await frontiersStorage().readText(`${id}.json`)))
  if (!parsed.success)
    throw new Error(`frontier search ${id}: its record in this browser is damaged (${parsed.error.issues[0]?.message ?? 'unreadable'})`)
  return parsed.data
}

/** Every readable frontier record, newest first (damaged ones are skipped, not fatal). */
export async function listFrontiers(): Promise<FrontierRecord[]> {
  const storage = frontiersStorage()
  const out: FrontierRecord[] = []
  for (const entry of await storage.list('')) {
    if (entry.kind !== 'file' || !entry.name.endsWith('.json')) continue
    try {
      const parsed = FrontierRecordSchema.safeParse(JSON.parse(await storage.readText(entry.name)))
      if (parsed.success) out.push(parsed.data)
    } catch {
      // A record that is not JSON is left alone.
    }
  }
  return out.sort((a, b) => b.createdAt - a.createdAt)
}
