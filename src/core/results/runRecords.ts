/**
 * The run records (redscope extras, see format.ts): per task, why each run ended and its unpriced calls
 * (run_records.json); per experiment, the tasks with unpriced calls (unpriced.json).
 */
import type { TaskResult } from '../engine/outcomes'
import { pyDumps } from './pyjson'
import { unpricedJsonOf } from './cost'
import type { ResultsSchemaVersion, UnpricedJson } from './format'

const dump = (payload: unknown) => pyDumps(payload, { indent: 2, ensureAscii: false })

/** A task's run_records.json, or null when there is nothing to say (no run and every call priced). */
export function runRecordsText(tr: TaskResult, schema: ResultsSchemaVersion): string | null {
  const unpriced = unpricedJsonOf(tr.llmUsage)
  if (tr.runs.length === 0 && unpriced === null) return null
  return dump({
    schema_version: schema,
    unpriced,
    runs: tr.runs.map((r, i) => ({
      run_number: i + 1,
      ended_by: r.ending?.cause ?? null,
      turns: r.ending?.turns ?? null,
      unpriced: unpricedJsonOf(r.runUsageDelta),
    })),
  })
}

/** The experiment's unpriced.json: the tasks with unpriced calls, by index. */
export function experimentUnpricedText(byTask: ReadonlyMap<number, UnpricedJson>, schema: ResultsSchemaVersion): string {
  const tasks = [...byTask]
    .filter(([, u]) => u.calls > 0)
    .sort((a, b) => a[0] - b[0])
    .map(([index, u]) => ({ index, ...u }))
  return dump({ schema_version: schema, tasks })
}
