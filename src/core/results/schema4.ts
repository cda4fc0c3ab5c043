/**
 * Writing results schema 4, what superred 0.3.0 writes and reads: the same
 * files, layout and item keys as schema 5, less what 0.3.0 does not have
 * (`task_time_cap_s`, `n_measured_runs`, `n_timeout`, `n_timeout_empty`,
 * and a NoInjection's `declined_by`). What is still built as a JSON shape
 * (the experiments.json rows, and the generic route the printers' property
 * tests compare with) passes through here. The files printed straight from
 * the engine's objects (trajectoryText, taskText, experimentText) leave those
 * keys out themselves, and those tests hold them to this conversion.
 */
import { assertNever } from '../engine/assertNever'
import type { ResultsSchemaVersion } from './format'

export type ResultsFileKind = 'iterations' | 'task' | 'attacker' | 'manifest' | 'result' | 'experiments'

type Json = Record<string, unknown>

const without = (o: unknown, keys: readonly string[]): Json => {
  const out: Json = { ...(o as Json) }
  for (const k of keys) delete out[k]
  return out
}

const experiment4 = (e: unknown) => without(e, ['task_time_cap_s'])

/** An experiment block (in a manifest, result.json, an experiments.json row) in `schema`. */
export const experimentAsSchema = (schema: ResultsSchemaVersion, e: Json): Json => (schema === 5 ? e : experiment4(e))
const summary4 = (s: unknown) => without(s, ['n_timeout', 'n_timeout_empty'])

/** The file's payload in `schema` (5: as built; 4: converted). */
export function asSchema(schema: ResultsSchemaVersion, kind: ResultsFileKind, payload: Json): Json {
  if (schema === 5) return payload
  const p: Json = { ...payload, schema_version: 4 }
  switch (kind) {
    case 'iterations':
    case 'attacker':
      return p
    case 'task':
      return without(p, ['task_time_cap_s', 'n_measured_runs'])
    case 'manifest':
    case 'result':
      return { ...p, experiment: experiment4(p.experiment), summary: summary4(p.summary) }
    case 'experiments':
      // Rows of other experiments are left as they are: only this writer's own row is built here.
      return p
    default:
      return assertNever(kind, 'results file kind')
  }
}

/** One experiments.json row (this experiment's) in `schema`. */
export function indexRowAsSchema(schema: ResultsSchemaVersion, row: Json): Json {
  return schema === 5 ? row : { ...row, experiment: experimentAsSchema(schema, row.experiment as Json) }
}
