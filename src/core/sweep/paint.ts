/**
 * The sweep's results painted on the forest, per tag: what the tag itself
 * contributes, never an average that credits it with wins that came through
 * other tags (issue 31: `policy`, observable only, was painted "86.7% success"
 * because every threat model that held it also held a tag that won).
 *
 * Two views, and the painting says which it shows:
 * - **the frontier's**, when a frontier search's answer is known (frontier.json,
 *   or the browser's search): a tag is written by a minimal winning threat
 *   model, only read by one, or needed by none;
 * - otherwise **with against without**: the pooled ASR of the threat models
 *   whose grant covers the tag (scope or read_only, a granted parent covering
 *   its subtree: superred's `scope_includes`) beside the pooled ASR of those
 *   whose grant does not, each with its n (completed tasks) and 95% Wilson
 *   interval. A tag is painted as raising the ASR only when the 95% interval
 *   of the difference (Newcombe's, made of those two Wilson intervals) lies
 *   above zero; a tag that grants nothing then shows "no measured difference".
 *
 * The words and colours live here too, so the run console, the results viewer
 * and the HTML report paint alike.
 */
import { differenceInterval, rateWords, type Interval } from '../stats'
import type { Forest } from '../tags'
import type { ModelOutcome } from './analysis'
import { TagIndex } from './tagIndex'

/** Threat models with completed tasks, and their tasks pooled. */
export interface Pool {
  readonly models: number
  /** Of those, how many broke the claim at least once. */
  readonly broken: number
  readonly successes: number
  readonly completed: number
}

/**
 * - raises: with − without is above 0 at 95%;
 * - lowers: below 0 at 95% (a wider grant doing worse: noise, or an attacker spending runs elsewhere);
 * - no-difference: the interval of the difference holds 0;
 * - unknown: one side has no completed task (no model grants the tag, or every model does).
 */
export type TagEffect = 'raises' | 'lowers' | 'no-difference' | 'unknown'

export interface TagPaint {
  /** The threat models whose grant covers the tag. */
  readonly with: Pool
  /** The threat models whose grant does not. */
  readonly without: Pool
  /** 95% interval of rate(with) − rate(without); null when either side is empty. */
  readonly difference: Interval | null
  readonly effect: TagEffect
}

const EMPTY: Pool = { models: 0, broken: 0, successes: 0, completed: 0 }

export function effectOf(difference: Interval | null): TagEffect {
  if (difference === null) return 'unknown'
  return difference.low > 0 ? 'raises' : difference.high < 0 ? 'lowers' : 'no-difference'
}

/** Per tag: the threat models (with completed tasks) that grant it against those that do not. */
export function paintForest(forest: Forest, models: readonly ModelOutcome[]): Map<string, TagPaint> {
  const idx = new TagIndex(forest)
  const size = idx.names.length
  // Counts per tag position, in flat arrays: a sweep of 10,000 models over a wide forest stays in milliseconds.
  const nModels = new Float64Array(size)
  const nBroken = new Float64Array(size)
  const nSuccess = new Float64Array(size)
  const nCompleted = new Float64Array(size)
  const total = { models: 0, broken: 0, successes: 0, completed: 0 }
  for (const m of models) {
    if (m.nCompleted === 0) continue
    const broke = m.nSuccess > 0 ? 1 : 0
    total.models += 1
    total.broken += broke
    total.successes += m.nSuccess
    total.completed += m.nCompleted
    const visible = idx.cover(m.scope)
    if (m.readOnly.length > 0) {
      const ro = idx.cover(m.readOnly)
      for (let w = 0; w < visible.length; w++) visible[w] |= ro[w]
    }
    for (let i = 0; i < size; i++) {
      if (!idx.hasAt(visible, i)) continue
      nModels[i] += 1
      nBroken[i] += broke
      nSuccess[i] += m.nSuccess
      nCompleted[i] += m.nCompleted
    }
  }
  const out = new Map<string, TagPaint>()
  idx.names.forEach((name, i) => {
    const w: Pool = nModels[i] === 0 ? EMPTY : { models: nModels[i], broken: nBroken[i], successes: nSuccess[i], completed: nCompleted[i] }
    const wo: Pool = {
      models: total.models - w.models,
      broken: total.broken - w.broken,
      successes: total.successes - w.successes,
      completed: total.completed - w.completed,
    }
    const difference = differenceInterval(
      { successes: w.successes, trials: w.completed },
      { successes: wo.successes, trials: wo.completed },
    )
    out.set(name, { with: w, without: wo, difference, effect: effectOf(difference) })
  })
  return out
}

/** written: some minimal winner writes it; read: some only reads it (none writes it); not-needed: none holds it. */
export type FrontierRole = 'written' | 'read' | 'not-needed'

export interface FrontierTagPaint {
  /** Minimal winning threat models that write the tag (by name or through an ancestor). */
  readonly writes: number
  /** Minimal winning threat models that only read it. */
  readonly reads: number
  /** Minimal winning threat models in all. */
  readonly winners: number
  readonly role: FrontierRole
}

export interface GrantNames {
  readonly scope: readonly string[]
  readonly readOnly: readonly string[]
}

/** Per tag: how the minimal winning threat models of a frontier hold it. */
export function paintFrontier(forest: Forest, minimalWins: readonly GrantNames[]): Map<string, FrontierTagPaint> {
  const idx = new TagIndex(forest)
  const grants = minimalWins.map((w) => ({ write: idx.cover(w.scope), read: idx.cover(w.readOnly) }))
  return new Map(
    idx.names.map((name, i) => {
      let writes = 0
      let reads = 0
      for (const g of grants) {
        if (idx.hasAt(g.write, i)) writes++
        else if (idx.hasAt(g.read, i)) reads++
      }
      const role: FrontierRole = writes > 0 ? 'written' : reads > 0 ? 'read' : 'not-needed'
      return [name, { writes, reads, winners: grants.length, role }]
    }),
  )
}

/** What a painted tag says, in the lines a tag box has room for and a longer title. */
export interface TagPaintWords {
  readonly lines: readonly string[]
  readonly title: string
}

const EFFECT_WORDS: Record<TagEffect, string> = {
  raises: 'raises the ASR',
  lowers: 'lower with it',
  'no-difference': 'no measured difference',
  unknown: 'nothing to compare',
}

export function contrastWords(p: TagPaint): TagPaintWords {
  const w = rateWords(p.with.successes, p.with.completed, { unit: 'task' })
  const wo = rateWords(p.without.successes, p.without.completed, { unit: 'task' })
  const effect = p.effect !== 'unknown' ? EFFECT_WORDS[p.effect] : p.with.completed === 0 ? 'granted by no model' : 'granted by every model'
  const diff =
    p.difference === null
      ? ''
      : `; with − without: ${points(Math.round(100 * (w.rate! - wo.rate!)))} points, 95% CI ${points(Math.floor(p.difference.low * 100 + 1e-9))} to ${points(Math.ceil(p.difference.high * 100 - 1e-9))}`
  const long =
    p.effect !== 'unknown'
      ? effect
      : p.with.completed === 0
        ? 'no threat model with results grants it: nothing to compare'
        : 'every threat model with results grants it: nothing to compare'
  return {
    lines: [`with: ${p.with.completed ? w.short : 'no results'}`, `without: ${p.without.completed ? wo.short : 'no results'}`, effect],
    title: `threat models that grant it: ${p.with.models}, ${w.text}; that do not: ${p.without.models}, ${wo.text}${diff}. ${long[0].toUpperCase()}${long.slice(1)}.`,
  }
}

// The ends of the difference are rounded outwards, as the rates' are (the low end down, the high end up).
const points = (v: number) => `${v > 0 ? '+' : ''}${v === 0 ? 0 : v}`

export function frontierWords(p: FrontierTagPaint): TagPaintWords {
  const of = `of ${p.winners} minimal winner${p.winners === 1 ? '' : 's'}`
  const line =
    p.winners === 0
      ? 'no threat model won'
      : p.role === 'written'
        ? `written by ${p.writes} ${of}`
        : p.role === 'read'
          ? `read only by ${p.reads} ${of}`
          : 'not needed by any minimal winner'
  const lines = p.role === 'written' && p.reads > 0 ? [line, `read only by ${p.reads} more`] : [line]
  return { lines, title: `${lines.join('; ')}.` }
}

/**
 * The colours of a painting. Contrast: red only where the tag raises the ASR
 * (deeper the larger the difference, on a square-root scale so a small one
 * shows), blue where it is lower with the tag, near-white where no difference
 * was measured, grey where there is nothing to compare. Frontier: red by the
 * share of minimal winners that write it, pale blue where they only read it.
 */
export function contrastFill(p: TagPaint): string {
  if (p.effect === 'unknown') return '#e9ecef'
  if (p.effect === 'no-difference') return '#f8f9fa'
  if (p.effect === 'lowers') return '#d0ebff'
  const d = p.with.successes / p.with.completed - p.without.successes / p.without.completed
  return redScale(d)
}

export function frontierFill(p: FrontierTagPaint): string {
  if (p.role === 'written') return redScale(p.writes / Math.max(1, p.winners))
  return p.role === 'read' ? '#e7f5ff' : '#f8f9fa'
}

function redScale(x: number): string {
  const t = Math.sqrt(Math.min(1, Math.max(0, x)))
  const mix = (a: number, b: number) => Math.round(a + (b - a) * t)
  // Light enough at its deepest for the dark words on it to stay readable.
  return `rgb(${mix(255, 240)}, ${mix(214, 104)}, ${mix(214, 104)})`
}

/** The legend of each view: a swatch and what it means. */
export const CONTRAST_LEGEND: ReadonlyArray<{ readonly fill: string; readonly words: string }> = [
  { fill: redScale(0.15), words: 'raises the ASR (with − without above 0 at 95%; deeper: a larger difference)' },
  { fill: '#f8f9fa', words: 'no measured difference (it may still matter: more tasks would tell)' },
  { fill: '#d0ebff', words: 'lower with it than without (noise, or an attacker spending runs elsewhere)' },
  { fill: '#e9ecef', words: 'nothing to compare (granted by no threat model with results, or by all)' },
]

export const FRONTIER_LEGEND: ReadonlyArray<{ readonly fill: string; readonly words: string }> = [
  { fill: redScale(0.5), words: 'written by a minimal winning threat model (deeper: by more of them)' },
  { fill: '#e7f5ff', words: 'only read by a minimal winner' },
  { fill: '#f8f9fa', words: 'not needed by any minimal winner' },
]
