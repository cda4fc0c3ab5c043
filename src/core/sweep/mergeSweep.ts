/**
 * `redscope merge`: the results trees of a sweep's shards as one tree, with
 * one sweep.json that the viewer paints as it paints a sweep run in the
 * browser. Everything is read and checked before anything is written: a
 * refusal (two sweeps, two shards that disagree) leaves the output as it was.
 */
import { readOptional, ResultsFormatError } from '../results/reader'
import { copyText, planTreeMerge, writeTreeMerge, type FileCopier, type TreeSource } from '../results/mergeTrees'
import type { Storage } from '../results/storage'
import { mergeSweepRecords, SweepMismatchError } from './mergeRecords'
import { SWEEP_FILE, SweepRecordSchema, sweepRecordText, type SweepRecord } from './record'

export interface SweepMergeReport {
  /** The merged sweep.json, or null when the inputs were plain results trees. */
  readonly record: SweepRecord | null
  readonly experiments: number
  /** Experiments copied into the output (others were there already). */
  readonly copied: number
  readonly files: number
  /** The sweep's experiments still in progress: their shard was stopped before it finished them. */
  readonly inProgress: readonly string[]
  /** Threat models the merged shards list that have no experiment folder yet. */
  readonly notStarted: readonly string[]
  /** Shards of the sweep that none of the inputs holds. */
  readonly missingShards: readonly number[]
  readonly notes: readonly string[]
}

export const isComplete = (r: SweepMergeReport) => r.inProgress.length === 0 && r.notStarted.length === 0 && r.missingShards.length === 0

async function readRecords(sources: readonly TreeSource[]) {
  const out: Array<{ label: string; record: SweepRecord | null }> = []
  for (const s of sources) {
    try {
      out.push({ label: s.label, record: await readOptional(s.storage, SWEEP_FILE, SweepRecordSchema) })
    } catch (e) {
      if (e instanceof ResultsFormatError)
        throw new ResultsFormatError(`${s.label}/${SWEEP_FILE}`, e.message.replace(`${SWEEP_FILE}: `, ''))
      throw e
    }
  }
  const withRecord = out.filter((r) => r.record !== null)
  if (withRecord.length > 0 && withRecord.length < out.length) {
    const plain = out.find((r) => r.record === null)!
    throw new SweepMismatchError(
      SWEEP_FILE,
      `${withRecord[0].label} holds a sweep (it has ${SWEEP_FILE}) but ${plain.label} does not:` +
        ' merge the shards of one sweep, or plain results trees without a sweep',
    )
  }
  return withRecord.map((r) => ({ label: r.label, record: r.record! }))
}

/** A sweep merge read and checked, not yet written: `write` writes it. */
export interface PreparedSweepMerge {
  write(): Promise<SweepMergeReport>
}

/**
 * Reads and checks everything a merge of `sources` into `out` needs, writing nothing: a caller that merges
 * several trees (a frontier search's repeat-k trees) prepares them all before it writes any.
 */
export async function prepareSweepMerge(
  sources: readonly TreeSource[],
  out: Storage,
  copy: FileCopier = copyText,
): Promise<PreparedSweepMerge> {
  if (sources.length === 0) throw new Error('mergeSweepTrees: nothing to merge')
  const records = await readRecords(sources)
  const record = records.length === 0 ? null : mergeSweepRecords(records)
  const plan = await planTreeMerge(sources, out)
  const notes = [...plan.notes]
  const byDir = new Map(plan.experiments.map((e) => [e.dir, e]))
  let inProgress: string[] = []
  let notStarted: string[] = []
  let missingShards: number[] = []
  if (record !== null) {
    const listed = new Set(record.models.map((m) => m.dir))
    notStarted = record.models.filter((m) => !byDir.has(m.dir)).map((m) => m.dir)
    inProgress = record.models.filter((m) => byDir.get(m.dir)?.chosen.manifest.status === 'in_progress').map((m) => m.dir)
    const extra = plan.experiments.filter((e) => !listed.has(e.dir)).length
    if (extra > 0)
      notes.push(`${extra} experiment(s) are not threat models of the sweep (other runs written into a shard's folder): merged as they are`)
    const shards = record.plan?.shards
    if (shards) missingShards = Array.from({ length: shards.count }, (_, i) => i).filter((i) => !shards.indices.includes(i))
  } else {
    inProgress = plan.experiments.filter((e) => e.chosen.manifest.status === 'in_progress').map((e) => e.dir)
  }
  return {
    async write() {
      const written = await writeTreeMerge(plan, out, copy)
      if (record !== null) await out.writeTextAtomic(SWEEP_FILE, sweepRecordText(record))
      return {
        record,
        experiments: plan.experiments.length,
        copied: written.copied,
        files: written.files,
        inProgress,
        notStarted,
        missingShards,
        notes,
      }
    },
  }
}

/**
 * Merges `sources` into `out`. When `out` already holds a tree (an earlier
 * merge), pass it among the sources with the same Storage object: its
 * experiments are then kept in place and the result is the same as merging
 * everything afresh.
 */
export async function mergeSweepTrees(
  sources: readonly TreeSource[],
  out: Storage,
  copy: FileCopier = copyText,
): Promise<SweepMergeReport> {
  return (await prepareSweepMerge(sources, out, copy)).write()
}
