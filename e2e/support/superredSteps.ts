/**
 * Writes a superred schema-4 results tree (superred 0.3.0's) step by step, the
 * way superred's Controller does: the experiment's manifest first, each task's
 * files with task.json last, the manifest again listing the task, then
 * result.json and experiments.json. Built from the real fixture, turned into
 * schema 4 (schema_version 4, no `declined_by`), each file written atomically.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { EXP, FIXTURE, TASK } from './resultsTree'

type Json = Record<string, unknown>

function asSchema4(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asSchema4)
  if (value === null || typeof value !== 'object') return value
  const out: Json = {}
  for (const [k, v] of Object.entries(value)) {
    if (k === 'declined_by') continue
    out[k] = k === 'schema_version' ? 4 : asSchema4(v)
  }
  return out
}

const fixture = (rel: string) => asSchema4(JSON.parse(readFileSync(join(FIXTURE, rel), 'utf8'))) as Json

function writeAtomic(root: string, rel: string, value: unknown): void {
  const path = join(root, rel)
  mkdirSync(dirname(path), { recursive: true })
  // A dot-file while it is written, as superred's atomic writes do: the server never shows it.
  const tmp = join(dirname(path), `.${Date.now()}.tmp`)
  writeFileSync(tmp, JSON.stringify(value, null, 2))
  renameSync(tmp, path)
}

export const SUPERRED_STEPS = {
  /** The experiment starts: a manifest in progress, no task yet, no result.json, no experiments.json row. */
  start(root: string) {
    const manifest = fixture(`${EXP}/manifest.json`)
    writeAtomic(root, `${EXP}/manifest.json`, {
      ...manifest,
      status: 'in_progress',
      timing: { ...(manifest.timing as Json), completed_at: null },
      tasks: [],
    })
  },
  /** A task lands: its runs and iterations, task.json last, then the manifest that lists it. */
  task(root: string) {
    for (const f of ['trajectories/run_00001.json', 'trajectories/run_00002.json', 'iterations.json', 'task.json']) {
      writeAtomic(root, `${EXP}/tasks/${TASK}/${f}`, fixture(`${EXP}/tasks/${TASK}/${f}`))
    }
    const manifest = fixture(`${EXP}/manifest.json`)
    writeAtomic(root, `${EXP}/manifest.json`, {
      ...manifest,
      status: 'in_progress',
      timing: { ...(manifest.timing as Json), completed_at: null },
    })
  },
  /** The experiment completes: result.json (the completion marker), the final manifest, the index. */
  finish(root: string) {
    writeAtomic(root, `${EXP}/result.json`, fixture(`${EXP}/result.json`))
    writeAtomic(root, `${EXP}/manifest.json`, fixture(`${EXP}/manifest.json`))
    writeAtomic(root, 'experiments.json', fixture('experiments.json'))
  },
}
