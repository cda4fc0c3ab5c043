/**
 * `redscope merge DIR... --out DIR`: the shards' results trees as one
 * (src/core/sweep/mergeSweep.ts does the work, hard-linking files on one
 * filesystem). Refusals change nothing; an incomplete sweep is merged and
 * named, and exits 1.
 */
import { realpath, stat } from 'node:fs/promises'
import { basename, dirname, join, resolve, sep } from 'node:path'
import { nodeFsCopier } from '../../adapters/storage/nodeFsCopy'
import { NodeFsStorage } from '../../adapters/storage/nodeFsStorage'
import { FrontierMergeError } from '../../core/frontier'
import { MergeConflictError, ResultsFormatError } from '../../core/results'
import { isComplete, mergeSweepTrees, shardText, SweepMismatchError } from '../../core/sweep'
import type { CommandArgs } from '../command'
import type { mergeOptions } from '../definitions/merge'
import { EXIT_FINDINGS, EXIT_OK, UsageError, type CliIo } from '../io'
import { frontierShards, mergeFrontierShards, type PathSource } from './mergeFrontier'

const fmt = (n: number) => n.toLocaleString('en-US')

async function isFolder(path: string): Promise<boolean | null> {
  try {
    return (await stat(path)).isDirectory()
  } catch {
    return null
  }
}

/** The real path of a folder that may not exist yet: its nearest existing ancestor's, then the rest. */
async function realPathOf(path: string): Promise<string> {
  const full = resolve(path)
  try {
    return await realpath(full)
  } catch {
    const parent = dirname(full)
    return parent === full ? full : join(await realPathOf(parent), basename(full))
  }
}

const inside = (child: string, parent: string) => child.startsWith(parent.endsWith(sep) ? parent : parent + sep)

/** A list for a message: the first few, and how many more. */
function some(items: readonly string[], max = 5): string {
  return items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')} and ${fmt(items.length - max)} more`
}

export async function mergeCommand({ positionals, options }: CommandArgs<typeof mergeOptions>, io: CliIo): Promise<number> {
  const out = options.out!
  const outPath = resolve(out)
  const outKind = await isFolder(out)
  if (outKind === false) throw new UsageError(`--out ${out}: not a folder`)
  const outStorage = new NodeFsStorage(out)
  const sources: PathSource[] = []
  const seen = new Set<string>()
  // A merge writes into --out while it reads its inputs: one folder must never be both, under any spelling.
  const realOut = await realPathOf(out)
  let outNamed = false
  for (const dir of positionals) {
    const path = resolve(dir)
    if (seen.has(path)) continue
    seen.add(path)
    if (path === outPath) {
      outNamed = true
      continue // --out among the inputs (a glob that takes it in): an earlier merge, added below as the output itself
    }
    const kind = await isFolder(dir)
    if (kind === null) throw new UsageError(`${dir}: no such folder`)
    if (!kind) throw new UsageError(`${dir}: not a folder (give the results folder of each shard)`)
    const real = await realpath(path)
    if (real === realOut) throw new UsageError(`${dir} is --out ${out} (the same folder): a folder is never merged into itself`)
    if (inside(realOut, real)) throw new UsageError(`--out ${out} is inside the input ${dir}: give a folder beside the inputs`)
    if (inside(real, realOut)) throw new UsageError(`the input ${dir} is inside --out ${out}: give a folder beside the inputs`)
    sources.push({ label: dir, storage: new NodeFsStorage(dir), path: dir })
  }
  if (outNamed && sources.length === 0) throw new UsageError(`--out ${out} is the only input: a folder is never merged into itself`)
  // An earlier merge in --out is one of the inputs: kept in place, and merged as if afresh.
  if (outKind && (await outStorage.list('')).length > 0) sources.push({ label: out, storage: outStorage, path: out })
  if (sources.length === 0) throw new UsageError("nothing to merge: give the shards' folders")
  let report
  try {
    const shards = await frontierShards(sources)
    if (shards.length > 0) return await mergeFrontierShards(sources, shards, out, outStorage, io)
    report = await mergeSweepTrees(sources, outStorage, nodeFsCopier)
  } catch (e) {
    if (
      e instanceof MergeConflictError ||
      e instanceof SweepMismatchError ||
      e instanceof ResultsFormatError ||
      e instanceof FrontierMergeError
    ) {
      throw new UsageError(`${e.message} (nothing was written)`)
    }
    throw e
  }
  for (const note of report.notes) io.stderr(`note: ${note}\n`)
  io.stdout(
    `merged ${fmt(sources.length)} tree(s) into ${out}: ${fmt(report.experiments)} experiment(s), ` +
      `${fmt(report.copied)} copied in (${fmt(report.files)} files)\n`,
  )
  const r = report.record
  if (r !== null) {
    const total = r.plan ? Number(r.plan.total) : r.models.length
    const finished = r.models.length - report.notStarted.length - report.inProgress.length
    const shards = r.plan && r.plan.shards.count > 1 ? `; shards ${r.plan.shards.indices.join(', ')} of ${r.plan.shards.count}` : ''
    io.stdout(`${r.id}: ${r.title}${shards}; ${fmt(finished)} of ${fmt(total)} threat models finished\n`)
  }
  if (isComplete(report)) return EXIT_OK
  const missing: string[] = []
  if (report.missingShards.length > 0) {
    const count = r?.plan?.shards.count ?? 1
    missing.push(
      `shard${report.missingShards.length === 1 ? '' : 's'} ${some(report.missingShards.map((i) => shardText({ index: i, count })))} missing`,
    )
  }
  if (report.inProgress.length > 0)
    missing.push(`${fmt(report.inProgress.length)} threat model(s) in progress (their shard was stopped): ${some(report.inProgress, 3)}`)
  if (report.notStarted.length > 0)
    missing.push(`${fmt(report.notStarted.length)} threat model(s) not started: ${some(report.notStarted, 3)}`)
  io.stderr(`redscope merge: the sweep is incomplete: ${missing.join('; ')}. Rerun those shards (they resume), then merge again.\n`)
  return options['allow-incomplete'] ? EXIT_OK : EXIT_FINDINGS
}
