/**
 * The one way redscope words a measured success rate, so that the run console,
 * the results viewer, the HTML reports and the CLI say the same thing:
 *
 * - something broke: "33% (1 of 3 tasks, 95% CI 6–80%)", compact "1/3 (6–80%)";
 * - nothing broke: "not broken in 8 runs by template (≤ 33% at 95%)", compact
 *   "0/8 (≤ 33%)": how little was tried, by whom, and the most the rate can be
 *   at 95% confidence. Never "safe", never a bare "0%";
 * - nothing measured: "no completed task".
 *
 * Percentages are whole and rounded outwards (the low bound down, the high
 * bound up), so the interval printed always contains the one computed: "≤ 33%"
 * is true when the bound is 32.4%. A rate that is not 0 never prints as "0%"
 * ("<1%"), one that is not 1 never as "100%" (">99%").
 *
 * What n counts is the caller's to say (`unit`): a threat model's ASR counts its
 * completed tasks (superred's n_completed); a task that held counts its runs.
 */
import { wilsonInterval, type Interval } from './wilson'

export type TrialUnit = 'task' | 'run'

export interface RateWordsOptions {
  /** What one trial is: the noun of n. */
  readonly unit: TrialUnit
  /** Who tried (the experiment's attacker label); named in the words of a rate that held. */
  readonly attacker?: string | null
}

export interface RateWords {
  readonly successes: number
  readonly trials: number
  /** successes / trials; null with no trial. */
  readonly rate: number | null
  /** The 95% Wilson interval; null with no trial. */
  readonly interval: Interval | null
  /** Nothing broke in at least one trial. */
  readonly held: boolean
  /** The big number of a dashboard: "33%", "not broken", "–". */
  readonly headline: string
  /** What stands under it: "1 of 3 tasks, 95% CI 6–80%", "in 8 runs by template, ≤ 33% at 95%", "no completed task". */
  readonly detail: string
  /** One line: "33% (1 of 3 tasks, 95% CI 6–80%)", "not broken in 8 runs by template (≤ 33% at 95%)", "no completed task". */
  readonly text: string
  /** For grids and painted tags: "1/3 (6–80%)", "0/8 (≤ 33%)", "0/0". */
  readonly short: string
}

const nouns: Record<TrialUnit, readonly [string, string]> = { task: ['task', 'tasks'], run: ['run', 'runs'] }
const count = (n: number, unit: TrialUnit) => `${n.toLocaleString('en-US')} ${nouns[unit][n === 1 ? 0 : 1]}`

// A hair below a whole percent is still that percent: 0.93 * 100 is 93.00000000000001.
const EPS = 1e-9

/** A lower bound as a whole percent, rounded down. */
export const lowPercent = (x: number): string => `${Math.max(0, Math.floor(x * 100 + EPS))}%`
/** An upper bound as a whole percent, rounded up. */
export const highPercent = (x: number): string => `${Math.min(100, Math.ceil(x * 100 - EPS))}%`

/** A measured rate as a whole percent; only an exact 0 or 1 reads "0%" or "100%". */
export function ratePercent(successes: number, trials: number): string {
  if (trials === 0) return '–'
  if (successes === 0) return '0%'
  if (successes === trials) return '100%'
  const r = Math.round((100 * successes) / trials)
  return r === 0 ? '<1%' : r === 100 ? '>99%' : `${r}%`
}

/** "6–80%": the interval, rounded outwards. */
export function intervalText(iv: Interval): string {
  return `${lowPercent(iv.low).slice(0, -1)}–${highPercent(iv.high)}`
}

/** How to say k successes of n trials: see the module's comment for the forms. */
export function rateWords(successes: number, trials: number, options: RateWordsOptions): RateWords {
  const interval = trials === 0 ? null : wilsonInterval(successes, trials)
  const base = { successes, trials, rate: trials === 0 ? null : successes / trials, interval }
  if (interval === null) {
    const none = `no completed ${nouns[options.unit][0]}`
    return { ...base, held: false, headline: '–', detail: none, text: none, short: '0/0' }
  }
  if (successes === 0) {
    const by = options.attacker ? ` by ${options.attacker}` : ''
    const bound = `≤ ${highPercent(interval.high)} at 95%`
    return {
      ...base,
      held: true,
      headline: 'not broken',
      detail: `in ${count(trials, options.unit)}${by}, ${bound}`,
      text: `not broken in ${count(trials, options.unit)}${by} (${bound})`,
      short: `0/${trials} (≤ ${highPercent(interval.high)})`,
    }
  }
  const pct = ratePercent(successes, trials)
  const ci = intervalText(interval)
  return {
    ...base,
    held: false,
    headline: pct,
    detail: `${successes.toLocaleString('en-US')} of ${count(trials, options.unit)}, 95% CI ${ci}`,
    text: `${pct} (${successes.toLocaleString('en-US')} of ${count(trials, options.unit)}, 95% CI ${ci})`,
    short: `${successes}/${trials} (${ci})`,
  }
}

/**
 * A rate as the outcome of an attack, one line: "ASR 33% (1 of 3 tasks, 95% CI 6–80%)", or the held words as
 * they are ("not broken in 3 tasks by template (≤ 57% at 95%)"), or "no completed task".
 */
export function asrText(w: RateWords): string {
  return w.held || w.interval === null ? w.text : `ASR ${w.text}`
}
