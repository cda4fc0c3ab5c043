/**
 * `redscope sweep`'s choice of threat models and of its shard, from flags:
 * every problem one line naming the flag or the file and the entry.
 */
import { readFile } from 'node:fs/promises'
import { basename } from 'node:path'
import { z } from 'zod'
import { jsonDeeperThan, MAX_JSON_DEPTH } from '../core/json'
import {
  digestOf,
  parseIndexRanges,
  parseShard,
  selectionOf,
  shardFromEnv,
  ShardError,
  SweepPickError,
  type NamedThreatModel,
  type Selection,
  type Shard,
  type SweepPick,
  type SweepSelection,
} from '../core/sweep'
import { countCombinations, formatPath, type SecurityDomain } from '../core/tags'
import { UsageError } from './io'

/**
 * A list of threat models: `[["inbox"], ["user", "drive"]]` (scopes, read_only
 * none: what `redscope combinations` prints), or objects with `scope` and
 * `read_only`, bare or under `threat_models`.
 */
const NamesSchema = z.array(z.string())
const ObjectEntrySchema = z.object({ scope: NamesSchema.default([]), read_only: NamesSchema.default([]), name: z.string().optional() })
const SHAPES = '[["tag", ...], ...] or [{"scope": [...], "read_only": [...]}, ...]'

/** Each entry checked in the shape it has, so that a problem names its entry and field. */
export function parseThreatModels(json: unknown): NamedThreatModel[] {
  const list = Array.isArray(json)
    ? json
    : json !== null && typeof json === 'object' && Array.isArray((json as { threat_models?: unknown }).threat_models)
      ? (json as { threat_models: unknown[] }).threat_models
      : null
  if (list === null) throw new Error(`not a list of threat models: expected ${SHAPES}, bare or under "threat_models"`)
  return list.map((entry, i) => {
    const parsed = Array.isArray(entry) ? NamesSchema.safeParse(entry) : ObjectEntrySchema.safeParse(entry)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw new Error(`${formatPath([i, ...issue.path])}: ${issue.message} (expected ${SHAPES})`)
    }
    const d = parsed.data
    return Array.isArray(d) ? { scope: d, readOnly: [] } : { scope: d.scope, readOnly: d.read_only, ...(d.name ? { name: d.name } : {}) }
  })
}

export async function readThreatModelsFile(path: string): Promise<NamedThreatModel[]> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    throw new UsageError(`--threat-models ${path}: ${code === 'ENOENT' ? 'no such file' : `cannot be read (${code ?? String(e)})`}`)
  }
  if (jsonDeeperThan(text, MAX_JSON_DEPTH)) throw new UsageError(`--threat-models ${path}: JSON nested too deep (refused unparsed)`)
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    throw new UsageError(`--threat-models ${path}: not valid JSON (${(e as Error).message})`)
  }
  let models: NamedThreatModel[]
  try {
    models = parseThreatModels(json)
  } catch (e) {
    throw new UsageError(`--threat-models ${path}: ${(e as Error).message}`)
  }
  if (models.length === 0) throw new UsageError(`--threat-models ${path}: the list is empty`)
  return models
}

export interface SelectionFlags {
  readonly all?: boolean
  readonly containing?: readonly string[]
  readonly indices?: string
  readonly threatModels?: string
}

export interface ChosenSelection {
  readonly selection: Selection
  /** What sweep.json records of the choice: the same for every shard. */
  readonly spec: SweepSelection
}

const SELECTION_FLAGS = '--all, --containing TAG, --indices RANGES or --threat-models FILE'

/** Exactly one way of choosing, resolved against the forest the sweep enumerates. */
export async function chooseSelection(flags: SelectionFlags, domain: SecurityDomain): Promise<ChosenSelection> {
  const given = [
    flags.all ? '--all' : null,
    flags.containing?.length ? '--containing' : null,
    flags.indices !== undefined ? '--indices' : null,
    flags.threatModels !== undefined ? '--threat-models' : null,
  ].filter((x) => x !== null)
  if (given.length === 0) throw new UsageError(`say which threat models to run: ${SELECTION_FLAGS}`)
  if (given.length > 1) throw new UsageError(`${given.join(' and ')}: choose the threat models one way (${SELECTION_FLAGS})`)
  let pick: SweepPick
  let spec: SweepSelection
  let flag: string
  if (flags.all) {
    flag = '--all'
    pick = { kind: 'all' }
    spec = { kind: 'all' }
  } else if (flags.containing?.length) {
    flag = '--containing'
    const tags = [...new Set(flags.containing)]
    pick = { kind: 'containing', tags }
    spec = { kind: 'containing', tags }
  } else if (flags.indices !== undefined) {
    flag = '--indices'
    let ranges: string
    try {
      ranges = parseIndexRanges(flags.indices, countCombinations(domain)).text
    } catch (e) {
      if (e instanceof SweepPickError) throw new UsageError(`--indices ${flags.indices}: ${e.message}`)
      throw e
    }
    pick = { kind: 'ranges', ranges }
    spec = { kind: 'indices', ranges }
  } else {
    flag = `--threat-models ${flags.threatModels}`
    const models = await readThreatModelsFile(flags.threatModels!)
    pick = { kind: 'list', models }
    spec = { kind: 'file', name: basename(flags.threatModels!), digest: digestOf(models.map((m) => [m.scope, m.readOnly])) }
  }
  try {
    const selection = selectionOf(domain, pick)
    if (selection.count === 0n) throw new UsageError(`${flag}: no threat model of this forest matches`)
    return { selection, spec }
  } catch (e) {
    if (e instanceof SweepPickError) {
      const known = /is not a tag of this forest/.test(e.message)
        ? ` (the forest's tags: ${domain.tags.map((t) => t.name).join(', ')})`
        : ''
      throw new UsageError(`${flag}: ${e.message}${known}`)
    }
    throw e
  }
}

export interface ShardFlags {
  readonly shard?: string
  readonly shardFromEnv?: string
  readonly shards?: string
}

/** `--shard I/N`, or `--shard-from-env VAR --shards N`, or the whole sweep. */
export function chooseShard(flags: ShardFlags, env: Readonly<Record<string, string | undefined>>): Shard {
  try {
    if (flags.shard !== undefined) {
      if (flags.shardFromEnv !== undefined || flags.shards !== undefined) {
        throw new UsageError('--shard I/N and --shard-from-env VAR --shards N: give the shard one way')
      }
      return parseShard(flags.shard)
    }
    if (flags.shardFromEnv !== undefined || flags.shards !== undefined) {
      if (flags.shardFromEnv === undefined)
        throw new UsageError("--shards N needs --shard-from-env VAR (the variable that holds this worker's index)")
      if (flags.shards === undefined)
        throw new UsageError(`--shard-from-env ${flags.shardFromEnv} needs --shards N (how many workers there are)`)
      const n = /^\s*\d+\s*$/.test(flags.shards) ? Number(flags.shards) : NaN
      return shardFromEnv(flags.shardFromEnv, env[flags.shardFromEnv], n)
    }
    return { index: 0, count: 1 }
  } catch (e) {
    if (e instanceof ShardError) throw new UsageError(e.message)
    throw e
  }
}
