/**
 * A saved frontier search (frontier.json) as the words every place shows it
 * in: the minimal wins and the maximal losses of the claim, each with the runs
 * that decided it. Derived from the file on read, so the CLI, the viewer, the
 * browser's kept searches and the reports say the same thing. A loss is said
 * as what was measured ("not broken in 3 runs by template"), never as "safe".
 */
import { describeModel } from '../lattice'
import { rateWords } from '../stats'
import type { FrontierFile } from './file'

export interface AnswerPoint {
  /** The designer's #N (with read-only grants "S/R"). */
  readonly index: string
  readonly scope: readonly string[]
  readonly readOnly: readonly string[]
  /** The threat model in words ("writes a, reads b"). */
  readonly words: string
  readonly verdict: 'wins' | 'loses'
  /** The runs of the claim that decided it, in words; '' when the file records none for it. */
  readonly runs: string
  /** Its experiment folders (relative to the tree), in run order. */
  readonly dirs: readonly string[]
}

export interface FrontierAnswerWords {
  readonly minimalWins: readonly AnswerPoint[]
  readonly maximalLosses: readonly AnswerPoint[]
  /** "Evaluated 7 of 15 threat models; 8 decided by inference." and, when stopped, that the answer is partial. */
  readonly progress: string
  /** What a search with no minimal win found, in words that claim no more than the runs; '' when something won. */
  readonly none: string
  readonly complete: boolean
}

const fmt = (n: number) => n.toLocaleString('en-US')
/** Two decimals, rounded outwards: a shown interval never claims more than the sequence does. */
const bounds = ([low, high]: readonly [number, number]) =>
  `[${(Math.floor(low * 100) / 100).toFixed(2)}, ${(Math.ceil(high * 100) / 100).toFixed(2)}]`

type Point = FrontierFile['claim']['minimal_wins'][number]

export function answerWords(file: FrontierFile): FrontierAnswerWords {
  const attacker = file.search.attacker || null
  const claimTally = new Map(file.evaluations.map((e) => [e.index, e.claim]))
  const point =
    (verdict: AnswerPoint['verdict']) =>
    (m: Point): AnswerPoint => {
      // With a sequential test the point carries its own tally; without, its evaluation's claim tally says the runs.
      const t = m.tally ?? claimTally.get(m.index)
      const runs =
        t === undefined
          ? ''
          : t.interval !== undefined
            ? `${t.wins} of ${fmt(t.runs)} run${t.runs === 1 ? '' : 's'} won, rate in ${bounds(t.interval)}`
            : rateWords(t.wins, t.runs, { unit: 'run', attacker }).text
      return {
        index: m.index,
        scope: m.scope,
        readOnly: m.read_only,
        words: m.words || describeModel({ scope: m.scope, readOnly: m.read_only }),
        verdict,
        runs,
        dirs: m.runs,
      }
    }
  const minimalWins = file.claim.minimal_wins.map(point('wins'))
  const maximalLosses = file.claim.maximal_losses.map(point('loses'))
  const inferred = file.claim.decided_by_inference
  const progress =
    `Evaluated ${fmt(file.evaluated)} of ${fmt(file.threat_models_total)} threat models` +
    `${file.search.read_only ? ' (read-only grants included)' : ''}` +
    `${inferred === null ? '' : `; ${fmt(inferred)} decided by inference`}` +
    `${file.complete ? '.' : `; stopped before the answer was complete${file.claim.undecided === null ? '' : ` (${fmt(file.claim.undecided)} undecided)`}: what follows is partial.`}`
  const repeat =
    file.search.confidence === undefined
      ? `${file.search.repeat} run${file.search.repeat === 1 ? '' : 's'} per evaluation`
      : 'each decided by its sequential test'
  const none =
    minimalWins.length > 0
      ? ''
      : file.complete
        ? `No threat model broke the claim in the runs made (${repeat}): even the widest attacker lost.`
        : 'No threat model has broken the claim so far.'
  return { minimalWins, maximalLosses, progress, none, complete: file.complete }
}
