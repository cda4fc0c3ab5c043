/**
 * A sweep's grid rows in one shape, whether they come from a live run or
 * from each experiment's manifest.json (after it, and after a reload), and
 * the outcomes the forest painting and the wider-did-worse check read.
 */
import { joinPath, ManifestFile, readOptional, type ManifestFile as Manifest, type Storage } from '../results'
import type { ModelOutcome } from './analysis'
import type { SweepRecord } from './record'

export interface SweepCell {
  readonly index: number
  readonly status: string
  readonly error?: string | null
}

export interface SweepRow {
  readonly dir: string
  readonly index: string
  readonly scope: readonly string[]
  readonly readOnly: readonly string[]
  /** The saved threat model's name, when the sweep ran saved models. */
  readonly name?: string
  readonly state: 'queued' | 'running' | 'complete' | 'incomplete' | 'missing'
  readonly cells: readonly SweepCell[]
  readonly nTasks: number
  readonly nSuccess: number
  readonly nCompleted: number
}

export function rowsFromManifests(record: SweepRecord, manifests: ReadonlyMap<string, Manifest | null>): SweepRow[] {
  return record.models.map((m) => {
    const man = manifests.get(m.dir) ?? null
    if (man === null) return { ...m, state: 'missing', cells: [], nTasks: 0, nSuccess: 0, nCompleted: 0 }
    return {
      ...m,
      state: man.status === 'complete' ? 'complete' : 'incomplete',
      cells: man.tasks.map((t) => ({ index: t.index, status: t.status })),
      nTasks: man.experiment.n_tasks ?? man.tasks.length,
      nSuccess: man.summary.n_success ?? 0,
      nCompleted: man.summary.n_completed ?? 0,
    }
  })
}

export function outcomesOf(rows: readonly SweepRow[]): ModelOutcome[] {
  return rows.map((r) => ({ key: r.dir, scope: r.scope, readOnly: r.readOnly, nSuccess: r.nSuccess, nCompleted: r.nCompleted }))
}

/** Each model's manifest.json under a results root, or null where it is missing or unreadable (that row says so). */
export async function readSweepManifests(storage: Storage, record: SweepRecord, root = ''): Promise<Map<string, Manifest | null>> {
  const out = new Map<string, Manifest | null>()
  // A few at a time: a merged sweep can list tens of thousands of experiments.
  const dirs = record.models.map((m) => m.dir)
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(16, dirs.length) }, async () => {
      while (next < dirs.length) {
        const dir = dirs[next++]
        out.set(dir, await readOptional(storage, joinPath(root, dir, 'manifest.json'), ManifestFile).catch(() => null))
      }
    }),
  )
  return out
}
