/**
 * A sweep's record, `sweep.json`: which threat models it runs (their
 * experiment folders, scopes and combination indices) over which forest. The
 * run console keeps one per sweep in this browser and puts it at the root of
 * a sweep's zip; `redscope sweep` writes it at the root of its results tree
 * before the first threat model starts, and `redscope merge` merges them.
 * The sweep's grid and painted forest are drawn from it and the experiments'
 * manifests.
 *
 * `plan` is what a headless sweep adds: what was selected, how it was sharded,
 * and the settings every shard must share. A record without it (the browser's)
 * is a whole sweep.
 */
import { z } from 'zod'
import { ForestSchema } from '../tags'
import { pyDumps } from '../results/pyjson'
import { sha256Hex } from '../results/sha256'

export const SWEEP_FILE = 'sweep.json'

export const SweepModelEntrySchema = z.object({
  /** The experiment folder, `{slug}-{hash8}`. */
  dir: z.string(),
  /** The combination index in decimal, or '' for a threat model that is not one (a read_only, a non-antichain). */
  index: z.string(),
  scope: z.array(z.string()),
  readOnly: z.array(z.string()),
  /** A saved threat model's name (a browser sweep of a workspace's saved models); absent for an enumerated one. */
  name: z.string().optional(),
})
export type SweepModelEntry = z.infer<typeof SweepModelEntrySchema>

export const SweepSelectionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('all') }),
  z.object({ kind: z.literal('containing'), tags: z.array(z.string()) }),
  z.object({ kind: z.literal('indices'), ranges: z.string() }),
  /** A list of threat models from a file: its name and a digest of the models it held. */
  z.object({ kind: z.literal('file'), name: z.string(), digest: z.string() }),
])
export type SweepSelection = z.infer<typeof SweepSelectionSchema>

export const SweepPlanSchema = z.object({
  selection: SweepSelectionSchema,
  /** Threat models selected, all shards together (decimal: it can pass 2^53 on big forests). */
  total: z.string().regex(/^\d+$/),
  /** The sharding these models were run under, and which shards' models this record holds. */
  shards: z.object({ count: z.number().int().min(1), indices: z.array(z.number().int().min(0)) }),
  /** Every experiment's parameters but its scope: equal across shards, or they are not one sweep. */
  settings: z.object({
    model: z.string().nullable(),
    maxRunsPerTask: z.number().int(),
    taskCostCapUsd: z.number().nullable(),
    taskTimeCapS: z.number().nullable(),
    includeFeedback: z.boolean(),
  }),
  /** Digests of what the labels do not tell apart: the claim file's tasks, the attacker's options. */
  claimDigest: z.string(),
  attackerDigest: z.string(),
})
export type SweepPlan = z.infer<typeof SweepPlanSchema>

export const SweepRecordSchema = z.object({
  v: z.literal(1),
  id: z.string().regex(/^[A-Za-z0-9_-]+$/),
  createdAt: z.number(),
  title: z.string(),
  target: z.string(),
  claim: z.string(),
  attacker: z.string(),
  forest: ForestSchema,
  models: z.array(SweepModelEntrySchema),
  plan: SweepPlanSchema.optional(),
})
export type SweepRecord = z.infer<typeof SweepRecordSchema>

/** A short digest of any JSON value (sorted keys), for ids and fingerprints. */
export function digestOf(value: unknown, length = 16): string {
  return sha256Hex(pyDumps(value, { sortKeys: true })).slice(0, length)
}

/**
 * A headless sweep's id: the same for every shard of one sweep, and for the
 * same sweep run in one process (it hashes what the shards must share, not
 * how it was cut), so a merge can tell its shards from another sweep's.
 */
export function sweepIdOf(r: Pick<SweepRecord, 'target' | 'claim' | 'attacker' | 'forest'> & { plan: SweepPlan }): string {
  const p = r.plan
  const shared = {
    selection: p.selection,
    total: p.total,
    settings: p.settings,
    claimDigest: p.claimDigest,
    attackerDigest: p.attackerDigest,
  }
  return `sweep-${digestOf({ target: r.target, claim: r.claim, attacker: r.attacker, forest: r.forest, plan: shared }, 12)}`
}

const indexKey = (e: SweepModelEntry) => (e.index === '' ? null : BigInt(e.index))

/** The order a record lists its models in: by combination index (others last), then folder. */
export function compareModelEntries(a: SweepModelEntry, b: SweepModelEntry): number {
  const ia = indexKey(a)
  const ib = indexKey(b)
  if (ia !== ib) {
    if (ia === null) return 1
    if (ib === null) return -1
    return ia < ib ? -1 : ia > ib ? 1 : 0
  }
  return a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0
}

/** The file's text: two-space JSON, as the browser puts it in a sweep's zip. */
export function sweepRecordText(record: SweepRecord): string {
  return `${JSON.stringify(record, null, 2)}\n`
}
