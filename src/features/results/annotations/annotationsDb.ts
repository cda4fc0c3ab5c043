import { openDB, type DBSchema, type IDBPDatabase } from 'idb'
import { z } from 'zod'
import { ForestSchema, type Forest } from '../../../core/tags'
import type { StepAnnotation } from '../../../core/finding'

/**
 * The viewer's own small database: speaker notes and bookmarks on steps, and
 * forests attached to plain superred experiments. Keyed by the experiment
 * folder (its name carries the identity hash), task folder, run and event, so
 * the same finding opened from a folder, a zip or a URL shares its notes.
 */
export const ANNOTATIONS_DB = 'redscope-annotations'

const StepRecord = z.object({
  id: z.string(),
  run: z.string(),
  event: z.number().int(),
  note: z.string(),
  bookmarked: z.boolean(),
  updatedAt: z.number(),
})
type StepRecord = z.infer<typeof StepRecord>
const ForestRecord = z.object({ experiment: z.string(), label: z.string(), forest: ForestSchema, attachedAt: z.number() })
export type AttachedForest = z.infer<typeof ForestRecord>

interface AnnotationsSchema extends DBSchema {
  steps: { key: string; value: StepRecord; indexes: { byRun: string } }
  forests: { key: string; value: AttachedForest }
}

let dbPromise: Promise<IDBPDatabase<AnnotationsSchema>> | null = null
function db() {
  dbPromise ??= openDB<AnnotationsSchema>(ANNOTATIONS_DB, 1, {
    upgrade(d) {
      d.createObjectStore('steps', { keyPath: 'id' }).createIndex('byRun', 'run')
      d.createObjectStore('forests', { keyPath: 'experiment' })
    },
  })
  return dbPromise
}

export interface RunAddress {
  readonly experiment: string
  readonly task: string
  readonly run: number
}

export const runKeyOf = (a: RunAddress) => `${a.experiment}/${a.task}/${a.run}`

/** The run's annotations by event index. Records that no longer parse are skipped, not deleted. */
export async function readRunAnnotations(run: RunAddress): Promise<Map<number, StepAnnotation>> {
  const rows = await (await db()).getAllFromIndex('steps', 'byRun', runKeyOf(run))
  const out = new Map<number, StepAnnotation>()
  for (const raw of rows) {
    const r = StepRecord.safeParse(raw)
    if (r.success) out.set(r.data.event, { note: r.data.note, bookmarked: r.data.bookmarked })
  }
  return out
}

export async function writeStepAnnotation(run: RunAddress, event: number, value: StepAnnotation): Promise<void> {
  const d = await db()
  const id = `${runKeyOf(run)}/${event}`
  if (value.note.trim() === '' && !value.bookmarked) {
    await d.delete('steps', id)
    return
  }
  await d.put('steps', { id, run: runKeyOf(run), event, note: value.note, bookmarked: value.bookmarked, updatedAt: Date.now() })
}

export async function readAttachedForest(experiment: string): Promise<AttachedForest | null> {
  const r = ForestRecord.safeParse(await (await db()).get('forests', experiment))
  return r.success ? r.data : null
}

export async function writeAttachedForest(experiment: string, label: string, forest: Forest | null): Promise<void> {
  const d = await db()
  if (forest === null) await d.delete('forests', experiment)
  else await d.put('forests', { experiment, label, forest, attachedAt: Date.now() })
}
