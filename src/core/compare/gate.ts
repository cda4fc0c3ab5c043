/**
 * When a red team fails a build (`--fail-on`): a regression (a task that held
 * in BASE and breaks in HEAD, or a minimal winning threat model new in HEAD),
 * any breach in the results, or a threat model whose measured ASR is above P.
 * Each reason found is named, so the log says why the build failed.
 */
import { ratePercent } from '../stats'
import type { Comparison } from './compare'
import type { Side } from './side'

export type FailOn =
  | { readonly kind: 'regression' }
  | { readonly kind: 'breach' }
  /** A threat model whose ASR (its completed tasks' rate) is above `above`, a fraction. */
  | { readonly kind: 'asr'; readonly above: number }

export const FAIL_ON_FORMS = 'regression, breach or asr>P (P a fraction, 0.25, or a percentage, 25%)'

/** `regression`, `breach`, `asr>0.25` or `asr>25%`; an Error naming the forms otherwise. */
export function parseFailOn(text: string): FailOn {
  const t = text.trim()
  if (t === 'regression' || t === 'breach') return { kind: t }
  const m = /^asr\s*>\s*(\d+(?:\.\d+)?)(%?)$/.exec(t)
  if (m) {
    const value = Number(m[1]) / (m[2] === '%' ? 100 : 1)
    if (value >= 0 && value < 1) return { kind: 'asr', above: value }
    throw new Error(`${JSON.stringify(text)}: the threshold must be at least 0 and below 1 (100%)`)
  }
  throw new Error(`${JSON.stringify(text)}: expected ${FAIL_ON_FORMS}`)
}

export const failOnText = (f: FailOn) => (f.kind === 'asr' ? `asr>${f.above}` : f.kind)

const LIST_MAX = 5

function some(items: readonly string[]): string {
  return items.length <= LIST_MAX ? items.join('; ') : `${items.slice(0, LIST_MAX).join('; ')}; and ${items.length - LIST_MAX} more`
}

/**
 * Why the gate fails, one line per rule that matched; empty when nothing matched. `comparison` is null without a
 * baseline (sweep, frontier): a regression cannot be measured then, and asking for one is refused by the caller.
 */
export function gateFailures(failOn: readonly FailOn[], head: Side, comparison: Comparison | null): string[] {
  const out: string[] = []
  for (const rule of failOn) {
    if (rule.kind === 'regression' && comparison !== null) {
      const regressed = comparison.models.flatMap((m) =>
        m.tasks.filter((t) => t.change === 'regression').map((t) => `${m.label}: ${t.key}`),
      )
      const frontier = (comparison.frontier ?? []).flatMap((f) => f.newInHead.map((w) => `${f.question}: ${w.words}`))
      if (regressed.length > 0)
        out.push(`--fail-on regression: ${regressed.length} task(s) held in BASE and breached in HEAD: ${some(regressed)}`)
      if (frontier.length > 0)
        out.push(`--fail-on regression: ${frontier.length} minimal winning threat model(s) new in HEAD: ${some(frontier)}`)
    }
    if (rule.kind === 'breach') {
      const breached = head.models.flatMap((m) => m.tasks.filter((t) => t.outcome === 'breached').map((t) => `${modelLabel(m)}: ${t.key}`))
      if (breached.length > 0) out.push(`--fail-on breach: ${breached.length} task(s) breached: ${some(breached)}`)
    }
    if (rule.kind === 'asr') {
      const above = head.models
        .filter((m) => m.nCompleted > 0 && m.nSuccess / m.nCompleted > rule.above)
        .map((m) => `${modelLabel(m)} ${ratePercent(m.nSuccess, m.nCompleted)}`)
      if (above.length > 0)
        out.push(
          `--fail-on asr>${rule.above}: ${above.length} threat model(s) above ${Math.round(rule.above * 1000) / 10}%: ${some(above)}`,
        )
    }
  }
  return out
}

/** A threat model as the gate's messages, JUnit and SARIF name it: its saved name or its grants, and its attacker. */
export function modelLabel(m: { name: string | null; scope: readonly string[]; readOnly: readonly string[]; attacker: string }): string {
  const grants = m.scope.join(', ') + (m.readOnly.length > 0 ? `; read-only ${m.readOnly.join(', ')}` : '')
  return `${m.name ?? grants} (${m.attacker})`
}
