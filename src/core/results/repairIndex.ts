/**
 * experiments.json repaired from the folders: a run killed between an experiment's result.json and its index
 * row (the index is written last, and a sweep queues its rows) leaves a finished folder the index does not
 * list, and a resume keeps that experiment without reopening it, so nothing would ever add the row. A resume
 * calls this first: every finished folder (result.json present, manifest complete) the index lacks gets its
 * row, built from its own result.json. Nothing in the folders is written.
 */
import { ExperimentsIndex, type IndexRow } from './experimentsIndex'
import { ExperimentsIndexFile, ManifestFile, ResultFile, type ResultsSchemaVersion } from './format'
import { pyFloat } from './pyjson'
import { readOptional, readUnpriced } from './reader'
import { sumUnpriced } from './cost'
import { joinPath, type Storage } from './storage'

/** A string, or a number written with a fraction or an exponent (a Python float, printed back as one). */
const TOKENS = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?[eE][+-]?\d+|-?\d+\.\d+/g
const FLOAT = '\u0000float:'

/** JSON.parse that keeps Python floats as floats (1.0 stays 1.0 when the row is printed again). */
function parseKeepingFloats(text: string): unknown {
  const marked = text.replace(TOKENS, (t) => (t.startsWith('"') ? t : JSON.stringify(FLOAT + t)))
  const revive = (value: unknown): unknown => {
    if (typeof value === 'string' && value.startsWith(FLOAT)) return pyFloat(Number(value.slice(FLOAT.length)))
    if (Array.isArray(value)) return value.map(revive)
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, revive(v)]))
    return value
  }
  return revive(JSON.parse(marked))
}

/** Adds the rows the index of `root` lacks for finished folders; returns their folders' names. */
export async function repairExperimentsIndex(storage: Storage, root = ''): Promise<string[]> {
  let listed: Set<string>
  try {
    listed = new Set(
      (await readOptional(storage, joinPath(root, 'experiments.json'), ExperimentsIndexFile))?.experiments.map((r) => r.dir) ?? [],
    )
  } catch {
    listed = new Set() // an unreadable index is rebuilt by its next write, from what is found here and what runs
  }
  const added: string[] = []
  for (const entry of await storage.list(root)) {
    if (entry.kind !== 'dir' || listed.has(entry.name)) continue
    const dir = joinPath(root, entry.name)
    try {
      const manifest = await readOptional(storage, joinPath(dir, 'manifest.json'), ManifestFile)
      if (manifest?.status !== 'complete') continue
      const resultText = await storage.readText(joinPath(dir, 'result.json'))
      ResultFile.parse(JSON.parse(resultText))
      const result = parseKeepingFloats(resultText) as {
        schema_version: ResultsSchemaVersion
        experiment: { slug: string; hash: string }
        timing: { completed_at: string | null }
        summary: { asr: unknown; n_success: unknown; n_completed: unknown; total_llm_usage: unknown }
      }
      const { experiment, summary } = result
      // As the writer's row: its unpriced calls, so the list never shows their $0 as measured.
      const unpriced = sumUnpriced((await readUnpriced(storage, dir)).values())
      const row: IndexRow = {
        dir: entry.name,
        slug: experiment.slug,
        hash: experiment.hash,
        status: 'complete',
        experiment,
        summary: {
          asr: summary.asr,
          n_success: summary.n_success,
          n_completed: summary.n_completed,
          total_llm_usage: summary.total_llm_usage,
        },
        completed_at: result.timing.completed_at,
        ...(unpriced === null ? {} : { unpriced }),
      }
      ExperimentsIndex.of(storage, root).queue(row, result.schema_version)
      added.push(entry.name)
    } catch {
      continue // not a finished experiment (or not one at all): the reader and a resume deal with it
    }
  }
  if (added.length > 0) await ExperimentsIndex.of(storage, root).settle()
  return added
}
