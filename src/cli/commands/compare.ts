/**
 * `redscope compare BASE HEAD`: two results read whole (both before anything
 * is written), compared in src/core/compare, printed, and gated.
 */
import { stat } from 'node:fs/promises'
import { changesOf, compareSides, CompareInputError, comparisonText, restrictSide, type Side } from '../../core/compare'
import type { CommandArgs } from '../command'
import type { compareOptions } from '../definitions/compare'
import { applyGate, parseGateFlags, readGateSide } from '../gate'
import { UsageError, type CliIo } from '../io'
import { readThreatModelsFile } from '../sweepSelection'

async function checkFolder(path: string, which: string): Promise<void> {
  let isDir
  try {
    isDir = (await stat(path)).isDirectory()
  } catch {
    throw new UsageError(`${path}: no such folder (${which})`)
  }
  if (!isDir) throw new UsageError(`${path}: not a folder (${which}: give a results folder)`)
}

export async function compareCommand({ positionals, options }: CommandArgs<typeof compareOptions>, io: CliIo): Promise<number> {
  const rules = parseGateFlags(options, true)
  const [basePath, headPath] = positionals
  await checkFolder(basePath, 'BASE')
  await checkFolder(headPath, 'HEAD')
  const list = options['threat-models'] === undefined ? null : await readThreatModelsFile(options['threat-models'])
  const restrict = (side: Side) => (list === null ? side : restrictSide(side, list))
  const base = restrict(await readGateSide(basePath))
  const head = restrict(await readGateSide(headPath))
  let comparison
  try {
    comparison = compareSides(base, head)
  } catch (e) {
    if (e instanceof CompareInputError) throw new UsageError(e.message)
    throw e
  }
  io.stdout(options.json ? `${JSON.stringify(comparison, null, 2)}\n` : comparisonText(comparison))
  // SARIF points at the target when no forest file is named: the target's label is what a results tree records.
  const target = head.frontier?.target ?? head.models[0]?.target ?? headPath
  return applyGate(options, rules, head, comparison, changesOf(comparison), target, io)
}
