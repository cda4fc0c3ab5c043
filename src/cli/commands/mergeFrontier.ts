/**
 * `redscope merge` of a sharded frontier search (`frontier --per-task --shard
 * I/N`): the shards' results trees as one (each repeat-k tree too), and one
 * frontier.json whose claim frontier is computed from every task's
 * (src/core/frontier/mergeFiles.ts). Everything is read and checked first.
 */
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { nodeFsCopier } from '../../adapters/storage/nodeFsCopy'
import { NodeFsStorage } from '../../adapters/storage/nodeFsStorage'
import { describeModel } from '../../core/lattice'
import { FRONTIER_FILE, FrontierFileSchema, mergeFrontierFiles, type FrontierFile } from '../../core/frontier'
import { readOptional, ResultsFormatError, type TreeSource } from '../../core/results'
import { prepareSweepMerge, type PreparedSweepMerge } from '../../core/sweep'
import { EXIT_FINDINGS, EXIT_OK, type CliIo } from '../io'

export interface PathSource extends TreeSource {
  readonly path: string
}

/** The frontier.json of each input that has one; an earlier merge (in --out) is no shard and is left out of the answer. */
export async function frontierShards(sources: readonly PathSource[]): Promise<Array<{ label: string; file: FrontierFile }>> {
  const out: Array<{ label: string; file: FrontierFile }> = []
  for (const s of sources) {
    let file: FrontierFile | null
    try {
      file = await readOptional(s.storage, FRONTIER_FILE, FrontierFileSchema)
    } catch (e) {
      if (e instanceof ResultsFormatError)
        throw new ResultsFormatError(`${s.label}/${FRONTIER_FILE}`, e.message.replace(`${FRONTIER_FILE}: `, ''))
      throw e
    }
    if (file !== null && file.merged_from === null) out.push({ label: s.label, file })
  }
  return out
}

const isFolder = async (path: string) => (await stat(path).catch(() => null))?.isDirectory() === true

/** `outStorage`: the output's storage, the same object as the source that is an earlier merge in --out (if any). */
export async function mergeFrontierShards(
  sources: readonly PathSource[],
  shards: Array<{ label: string; file: FrontierFile }>,
  out: string,
  outStorage: NodeFsStorage,
  io: CliIo,
): Promise<number> {
  const merged = mergeFrontierFiles(shards)
  // The trees: the first run of every evaluation at the top, run k under repeat-k, as one search writes them.
  // With a test, shard I's repeats are numbered from I × max repeats + 1 (so that shards never collide): every shard's range.
  const trees = merged.file.search.repeat * (merged.file.search.confidence === undefined ? 1 : (merged.file.merged_from ?? 1))
  // Every repeat-k tree read and checked before any is written: damage in repeat-3 leaves repeat-1 untouched too.
  const prepared: PreparedSweepMerge[] = []
  for (let r = 1; r <= trees; r++) {
    const sub = r === 1 ? '' : `repeat-${r}`
    const subSources: TreeSource[] = []
    // The output's own repeat-k tree, one object whether it is written or read: the merge knows what is in place by it.
    const outSub = r === 1 ? outStorage : new NodeFsStorage(join(out, sub))
    for (const s of sources) {
      if (r === 1) subSources.push(s)
      else if (await isFolder(join(s.path, sub))) {
        subSources.push({ label: `${s.label}/${sub}`, storage: s.storage === outStorage ? outSub : new NodeFsStorage(join(s.path, sub)) })
      }
    }
    if (subSources.length === 0) continue
    prepared.push(await prepareSweepMerge(subSources, outSub, nodeFsCopier))
  }
  let experiments = 0
  for (const p of prepared) {
    const report = await p.write()
    for (const note of report.notes) io.stderr(`note: ${note}\n`)
    experiments += report.experiments
  }
  await outStorage.writeTextAtomic(FRONTIER_FILE, `${JSON.stringify(merged.file, null, 2)}\n`)
  const f = merged.file
  io.stdout(
    `merged ${shards.length} frontier shard(s) of ${f.merged_from} into ${out}: ${experiments.toLocaleString('en-US')} experiment(s), ` +
      `${f.evaluated.toLocaleString('en-US')} threat model(s) evaluated of ${f.threat_models_total.toLocaleString('en-US')}\n`,
  )
  if (f.complete) {
    io.stdout(
      f.claim.minimal_wins.length === 0
        ? 'no threat model broke the claim in the runs made: even the widest attacker lost\n'
        : `the weakest attackers that break the claim (${f.claim.minimal_wins.length}):\n` +
            f.claim.minimal_wins.map((m) => `  #${m.index} ${describeModel({ scope: m.scope, readOnly: m.read_only })} wins\n`).join(''),
    )
  }
  const problems: string[] = []
  if (merged.missingShards.length > 0)
    problems.push(`shard(s) ${merged.missingShards.map((i) => `${i}/${f.merged_from}`).join(', ')} missing`)
  if (merged.incompleteShards.length > 0)
    problems.push(`shard(s) ${merged.incompleteShards.join(', ')} stopped before their frontiers were complete (rerun them: they resume)`)
  if (f.contradictions.length > 0) problems.push(`${f.contradictions.length} contradiction(s) (see ${FRONTIER_FILE})`)
  const undecided = [f.claim, ...f.tasks].reduce((n, q) => n + (q.undecided_evaluated?.length ?? 0), 0)
  if (undecided > 0)
    problems.push(`${undecided} evaluated threat model(s) undecided after their runs (see ${FRONTIER_FILE}: undecided_evaluated)`)
  if (problems.length === 0) return EXIT_OK
  io.stderr(
    `redscope merge: ${problems.join('; ')}${f.complete ? '' : "; the claim's frontier needs every task's: merge again when they are done"}\n`,
  )
  return EXIT_FINDINGS
}
