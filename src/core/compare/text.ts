/**
 * The comparison as a person reads it in a build log: the counts, a short
 * table of what changed (regressions on top), the ASR changes with both
 * intervals, and the frontier's new and gone minimal winning threat models.
 * Unchanged tasks are counted, not listed.
 */
import type { Comparison, Counts, ModelChange, TaskChange, TaskChangeKind } from './compare'

/** Each task change in words: the CLI's table and the viewer's list say the same. */
export const CHANGE_WORDS: Record<TaskChangeKind, string> = {
  regression: 'held→breached',
  fix: 'breached→held',
  only_head: 'only in HEAD',
  only_base: 'only in BASE',
  unmeasured: 'not measured',
  unchanged: 'unchanged',
}
const OUTCOME = { breached: 'breached', held: 'held', unmeasured: 'not measured' } as const
const MAX_ROWS = 50

/** What a task came to on one side, with the runs behind it: "held (2 runs)", "–" where the side lacks it. */
export const outcomeText = (t: TaskChange, side: 'base' | 'head') => {
  const o = t[side]
  return o === null ? '–' : `${OUTCOME[o.outcome]} (${o.runs} run${o.runs === 1 ? '' : 's'})`
}

/** Columns padded to their widest cell; the last one free. */
function table(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)))
  return rows.map((r) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd(),
  )
}

const pct = (x: number) => `${x >= 0 ? '+' : ''}${Math.round(x * 100)} pts`

/**
 * HEAD's ASR minus BASE's with the 95% interval of the difference ("+50 pts (95% CI +2 pts to +80 pts)", and ": not
 * shown to differ" when it holds 0); null when one side lacks the threat model or nothing moved.
 */
export function asrChangeText(m: ModelChange): string | null {
  if (m.baseAsr === null || m.headAsr === null || m.asrChange === null) return null
  if (m.baseAsr.successes === m.headAsr.successes && m.baseAsr.trials === m.headAsr.trials) return null
  const c = m.asrChange
  return `${pct(c.difference)} (95% CI ${pct(c.interval.low)} to ${pct(c.interval.high)}${c.shown ? '' : ': not shown to differ'})`
}

function asrLine(m: ModelChange): string | null {
  const change = asrChangeText(m)
  return change === null ? null : `  ${m.label}: ${m.baseAsr!.words} → ${m.headAsr!.words}; change ${change}`
}

/** A frontier question named: the claim, or one task by its key. */
export const frontierQuestionText = (question: string) => (question === 'claim' ? 'the claim' : `task ${question}`)

/** The comparison's counts in one line, task by task: the CLI's second line and the viewer's summary. */
export function countsText(n: Counts): string {
  return (
    `${n.regressions} regression(s) (held→breached), ${n.fixes} fix(es) (breached→held), ${n.unchanged} unchanged, ` +
    `${n.onlyBase} only in BASE, ${n.onlyHead} only in HEAD, ${n.unmeasured} not measured on a side; ${n.breachedInHead} breached in HEAD`
  )
}

export function comparisonText(c: Comparison): string {
  const lines = [`redscope compare: BASE ${c.base}, HEAD ${c.head}`, countsText(c.counts)]
  const changed = c.models.flatMap((m) => m.tasks.filter((t) => t.change !== 'unchanged').map((t) => [m, t] as const))
  if (changed.length > 0) {
    lines.push('')
    const rows = changed
      .slice(0, MAX_ROWS)
      .map(([m, t]) => [CHANGE_WORDS[t.change], m.label, t.key, outcomeText(t, 'base'), outcomeText(t, 'head')])
    lines.push(...table([['change', 'threat model', 'task', 'BASE', 'HEAD'], ...rows]))
    if (changed.length > MAX_ROWS) lines.push(`... and ${changed.length - MAX_ROWS} more (--json lists every one)`)
  }
  const asr = c.models.map(asrLine).filter((l) => l !== null)
  if (asr.length > 0) {
    lines.push('', 'ASR changes (HEAD minus BASE, with both 95% intervals):')
    lines.push(...asr.slice(0, MAX_ROWS))
    if (asr.length > MAX_ROWS) lines.push(`  ... and ${asr.length - MAX_ROWS} more`)
  }
  if (c.frontier !== null) {
    lines.push('', 'Frontier (minimal winning threat models):')
    for (const f of c.frontier) {
      const q = frontierQuestionText(f.question)
      if (f.newInHead.length === 0 && f.goneFromHead.length === 0) {
        lines.push(`  ${q}: unchanged`)
        continue
      }
      for (const w of f.newInHead) lines.push(`  ${q}: new in HEAD (a weaker attacker may now win): ${w.words}`)
      for (const w of f.goneFromHead) lines.push(`  ${q}: gone from HEAD: ${w.words}`)
    }
  }
  return `${lines.join('\n')}\n`
}
