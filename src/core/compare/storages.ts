/**
 * Two opened results compared, as the viewer needs it: both sides read whole
 * (as `redscope compare` reads them), compared, and the forest to paint found
 * in either. Every problem names the side (BASE or HEAD) and why, with the
 * path inside it, as the CLI's exit-2 errors do.
 */
import { joinPath, readOptional, ResultsFormatError, type Storage } from '../results'
import { SWEEP_FILE, SweepRecordSchema } from '../sweep'
import { ForestSchema, type Forest } from '../tags'
import { compareSides, type Comparison } from './compare'
import { CompareInputError, readSide, type Side } from './side'

export interface LabelledStorage {
  readonly storage: Storage
  /** How the side is named in every message: the folder's, zip's or address's name. */
  readonly label: string
}

export type SideName = 'BASE' | 'HEAD'

/** Why two results cannot be compared: `side` is the one at fault, or null when the pair is (different claims). */
export class ComparisonError extends Error {
  constructor(
    readonly side: SideName | null,
    message: string,
  ) {
    super(message)
    this.name = 'ComparisonError'
  }
}

export interface OpenedComparison {
  readonly comparison: Comparison
  readonly base: Side
  readonly head: Side
  /** The forest to paint on, and which side's file it came from; null when neither side records one. */
  readonly forest: { readonly forest: Forest; readonly from: string } | null
}

async function readNamed(which: SideName, s: LabelledStorage): Promise<Side> {
  try {
    return await readSide(s.storage, s.label)
  } catch (e) {
    if (e instanceof CompareInputError) throw new ComparisonError(which, `${which}: ${e.message}`)
    const message = e instanceof Error ? e.message : String(e)
    throw new ComparisonError(which, `${which}: ${s.label}: cannot be read (${message})`)
  }
}

/** A side's forest: its sweep.json's, else the first experiment's domain.json (redscope writes one per experiment). */
async function forestOf(s: LabelledStorage, side: Side): Promise<{ forest: Forest; from: string } | null> {
  try {
    const sweep = await readOptional(s.storage, SWEEP_FILE, SweepRecordSchema)
    if (sweep) return { forest: sweep.forest, from: `${s.label}/${SWEEP_FILE}` }
    for (const m of side.models.slice(0, 8)) {
      const forest = await readOptional(s.storage, joinPath(m.dir, 'domain.json'), ForestSchema)
      if (forest) return { forest, from: `${s.label}/${joinPath(m.dir, 'domain.json')}` }
    }
  } catch (e) {
    // A forest that does not parse leaves the comparison whole: the list still says what changed.
    if (!(e instanceof ResultsFormatError)) throw e
  }
  return null
}

export async function compareStorages(base: LabelledStorage, head: LabelledStorage): Promise<OpenedComparison> {
  // Both read before either is judged, so that the error names BASE first whichever finished first.
  const [rb, rh] = await Promise.allSettled([readNamed('BASE', base), readNamed('HEAD', head)])
  if (rb.status === 'rejected') throw rb.reason
  if (rh.status === 'rejected') throw rh.reason
  const [b, h] = [rb.value, rh.value]
  let comparison: Comparison
  try {
    comparison = compareSides(b, h)
  } catch (e) {
    if (e instanceof CompareInputError) throw new ComparisonError(null, e.message)
    throw e
  }
  const forest = (await forestOf(head, h)) ?? (await forestOf(base, b))
  return { comparison, base: b, head: h, forest }
}
