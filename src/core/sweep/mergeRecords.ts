/**
 * Merging the sweep.json of several shards into one record. Pure: the same
 * records in any order give the same record, and a merged record merged
 * again with any of its parts gives itself. Records of different sweeps are
 * refused, naming the field and the two inputs.
 */
import { compareModelEntries, type SweepModelEntry, type SweepRecord } from './record'

export interface LabelledRecord {
  /** Where it came from, for messages: a folder, a zip. */
  readonly label: string
  readonly record: SweepRecord
}

/** Two inputs that are not parts of one sweep, or that list one threat model differently. */
export class SweepMismatchError extends Error {
  readonly field: string
  constructor(field: string, message: string) {
    super(message)
    this.name = 'SweepMismatchError'
    this.field = field
  }
}

const json = (v: unknown) => JSON.stringify(v)
const short = (v: unknown, max = 80) => {
  const s = typeof v === 'string' ? `'${v}'` : json(v)
  return s.length > max ? `${s.slice(0, max - 1)}…` : s
}

/** The fields that make two records one sweep, with the words a person would use for them. */
function sharedFields(r: SweepRecord): Array<[string, string, unknown]> {
  const p = r.plan
  return [
    ['target', 'target', r.target],
    ['claim', 'claim', r.claim],
    ['attacker', 'attacker', r.attacker],
    ['forest', 'forest', r.forest],
    ...(p === undefined
      ? []
      : ([
          ['plan.selection', 'selection of threat models', p.selection],
          ['plan.total', 'number of threat models selected', p.total],
          ...Object.entries(p.settings).map(([k, v]): [string, string, unknown] => [`plan.settings.${k}`, k, v]),
          ['plan.claimDigest', "claim file's tasks (same claim name, other content)", p.claimDigest],
          ['plan.attackerDigest', "attacker's options (templates, inject-on, replayed run)", p.attackerDigest],
          ['plan.shards.count', 'number of shards (a sweep cut two ways: merge the shards of one cut)', p.shards.count],
        ] as Array<[string, string, unknown]>)),
    ['id', 'sweep id', r.id],
    ['title', 'title', r.title],
  ]
}

function checkSameSweep(a: LabelledRecord, b: LabelledRecord): void {
  if ((a.record.plan === undefined) !== (b.record.plan === undefined)) {
    const [withPlan, without] = a.record.plan ? [a, b] : [b, a]
    throw new SweepMismatchError(
      'plan',
      `${without.label} holds a sweep run in the browser and ${withPlan.label} one run by redscope sweep: they are not parts of one sweep`,
    )
  }
  const fa = sharedFields(a.record)
  const fb = sharedFields(b.record)
  for (let i = 0; i < fa.length; i++) {
    const [field, words, va] = fa[i]
    const vb = fb[i][2]
    if (json(va) !== json(vb)) {
      throw new SweepMismatchError(
        field,
        `${a.label} and ${b.label} are not parts of one sweep: their ${words} differ` + ` (${field}: ${short(va)} vs ${short(vb)})`,
      )
    }
  }
}

export function mergeSweepRecords(inputs: readonly LabelledRecord[]): SweepRecord {
  if (inputs.length === 0) throw new Error('mergeSweepRecords: nothing to merge')
  const [first, ...rest] = inputs
  for (const other of rest) checkSameSweep(first, other)
  const byDir = new Map<string, { entry: SweepModelEntry; label: string }>()
  for (const { label, record } of inputs) {
    for (const entry of record.models) {
      const seen = byDir.get(entry.dir)
      if (seen === undefined) byDir.set(entry.dir, { entry, label })
      else if (json(seen.entry) !== json(entry)) {
        throw new SweepMismatchError(
          'models',
          `${seen.label} and ${label} list threat model ${entry.dir} differently` + ` (${short(seen.entry, 160)} vs ${short(entry, 160)})`,
        )
      }
    }
  }
  const models = [...byDir.values()].map((v) => v.entry).sort(compareModelEntries)
  const createdAt = Math.min(...inputs.map((i) => i.record.createdAt))
  const b = first.record
  // Built key by key, so the text does not depend on which input came first.
  const merged: SweepRecord = {
    v: 1,
    id: b.id,
    createdAt,
    title: b.title,
    target: b.target,
    claim: b.claim,
    attacker: b.attacker,
    forest: b.forest,
    models,
  }
  if (b.plan === undefined) return merged
  const indices = [...new Set(inputs.flatMap((i) => i.record.plan!.shards.indices))].sort((x, y) => x - y)
  const p = b.plan
  return {
    ...merged,
    plan: {
      selection: p.selection,
      total: p.total,
      shards: { count: p.shards.count, indices },
      settings: p.settings,
      claimDigest: p.claimDigest,
      attackerDigest: p.attackerDigest,
    },
  }
}
