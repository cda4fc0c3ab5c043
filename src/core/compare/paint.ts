/**
 * A comparison painted on the forest, per tag: how the threat models whose
 * grant covers it (scope or read-only, a granted parent covering its subtree,
 * as the sweep's painting counts) changed between BASE and HEAD. It shows
 * where the regressions are, not what caused them: a tag every threat model
 * grants is painted with every regression. The words say so, and the list of
 * changed threat models names each one.
 *
 * A tag's colour is its most pressing change, regressions first (as the
 * comparison lists them): red where some threat model granting it went from
 * held to breached, green where none did and some went from breached to held,
 * yellow where some is in one result only, near-white where all are unchanged,
 * grey where no compared threat model grants it. Every colour has its words.
 */
import { TagIndex } from '../sweep/tagIndex'
import type { TagPaintWords } from '../sweep'
import type { Forest } from '../tags'
import type { ModelChange } from './compare'

export type TagChange = 'regression' | 'fix' | 'one-side' | 'unchanged' | 'none'

export interface ChangeTagPaint {
  /** Compared threat models (in either result) whose grant covers the tag. */
  readonly models: number
  /** Of those, how many have a task that went from held to breached, and how many such tasks. */
  readonly regressed: number
  readonly regressions: number
  /** Of those, how many have a task that went from breached to held, and how many such tasks. */
  readonly fixed: number
  readonly fixes: number
  /** Of those, how many are in one result only. */
  readonly oneSide: number
  readonly change: TagChange
}

function changeOf(p: Omit<ChangeTagPaint, 'change'>): TagChange {
  if (p.regressed > 0) return 'regression'
  if (p.fixed > 0) return 'fix'
  if (p.oneSide > 0) return 'one-side'
  return p.models > 0 ? 'unchanged' : 'none'
}

/** Per tag of the forest, the changes of the threat models that grant it. Linear in models × tags. */
export function paintChanges(forest: Forest, models: readonly ModelChange[]): Map<string, ChangeTagPaint> {
  const idx = new TagIndex(forest)
  const size = idx.names.length
  const counts = {
    models: new Float64Array(size),
    regressed: new Float64Array(size),
    regressions: new Float64Array(size),
    fixed: new Float64Array(size),
    fixes: new Float64Array(size),
    oneSide: new Float64Array(size),
  }
  for (const m of models) {
    const regressions = m.tasks.filter((t) => t.change === 'regression').length
    const fixes = m.tasks.filter((t) => t.change === 'fix').length
    const visible = idx.cover(m.scope)
    const ro = idx.cover(m.readOnly)
    for (let w = 0; w < visible.length; w++) visible[w] |= ro[w]
    for (let i = 0; i < size; i++) {
      if (!idx.hasAt(visible, i)) continue
      counts.models[i] += 1
      counts.regressions[i] += regressions
      counts.regressed[i] += regressions > 0 ? 1 : 0
      counts.fixes[i] += fixes
      counts.fixed[i] += fixes > 0 ? 1 : 0
      counts.oneSide[i] += m.presence === 'both' ? 0 : 1
    }
  }
  return new Map(
    idx.names.map((name, i) => {
      const p = {
        models: counts.models[i],
        regressed: counts.regressed[i],
        regressions: counts.regressions[i],
        fixed: counts.fixed[i],
        fixes: counts.fixes[i],
        oneSide: counts.oneSide[i],
      }
      return [name, { ...p, change: changeOf(p) }]
    }),
  )
}

const CHANGE_FILL: Record<TagChange, string> = {
  regression: '#ffa8a8',
  fix: '#b2f2bb',
  'one-side': '#fff3bf',
  unchanged: '#f8f9fa',
  none: '#e9ecef',
}

/** The word under a tag, beside its colour: never the colour alone. */
const CHANGE_WORD: Record<TagChange, string> = {
  regression: 'regression',
  fix: 'fix',
  'one-side': 'in one result only',
  unchanged: 'unchanged',
  none: 'granted by none',
}

export const changeFill = (p: ChangeTagPaint): string => CHANGE_FILL[p.change]

const tasks = (n: number) => `${n} task${n === 1 ? '' : 's'}`

export function changeWords(p: ChangeTagPaint): TagPaintWords {
  if (p.models === 0)
    return {
      lines: ['no compared threat', 'model grants it', CHANGE_WORD.none],
      title: 'No compared threat model grants it: nothing to paint.',
    }
  const parts = [
    `${p.regressed} with a regression (${tasks(p.regressions)} held→breached)`,
    `${p.fixed} with a fix (${tasks(p.fixes)} breached→held)`,
  ]
  if (p.oneSide > 0) parts.push(`${p.oneSide} in one result only`)
  return {
    lines: [`regressed: ${p.regressed} of ${p.models}`, `fixed: ${p.fixed} of ${p.models}`, CHANGE_WORD[p.change]],
    title: `Threat models that grant it: ${p.models}; ${parts.join(', ')}. Where the changes are, not what caused them: the list names each threat model.`,
  }
}

/** The legend of the painting: a swatch and what it means, in words. */
export const CHANGE_LEGEND: ReadonlyArray<{ readonly fill: string; readonly words: string }> = [
  { fill: CHANGE_FILL.regression, words: 'red: a threat model granting it regressed (a task held in BASE, breached in HEAD)' },
  { fill: CHANGE_FILL.fix, words: 'green: none regressed and one was fixed (breached in BASE, held in HEAD)' },
  { fill: CHANGE_FILL['one-side'], words: 'yellow: no task changed, but a threat model granting it is only in BASE or only in HEAD' },
  { fill: CHANGE_FILL.unchanged, words: 'white: every threat model granting it unchanged' },
  { fill: CHANGE_FILL.none, words: 'grey: no compared threat model grants it' },
]
