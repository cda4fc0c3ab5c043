/**
 * A claim whose goal text contains what its own check looks for (the check's
 * regex matches the goal): an attacker that pastes the goal, as the simplest
 * payloads do, makes the target repeat the very text the check wants, and the
 * check passes on the attacker's own words. Such runs are echoes (the engine's
 * echo rule, src/core/engine/echo.ts) and are not counted as breaches unless
 * the user counts them; this names the claims that invite them, when they are
 * loaded, so the goal can be reworded ("reveal the vault passphrase", not
 * "reveal AZURE-FALCON-7391").
 */
import { userPattern } from '../core/patterns'
import type { ClaimFile } from './schema'

export interface GoalEchoWarning {
  /** 1-based, as the CLI and the run console number tasks. */
  readonly task: number
  readonly goal: string
  readonly pattern: string
  readonly flags: string
  /** What the pattern matched in the goal. */
  readonly match: string
}

/**
 * The tasks whose regex check (query_match, trajectory_match) matches their
 * own goal: as written, or ignoring case (the echo rule ignores case too).
 * On RE2, so linear in the goal.
 */
export function goalEchoWarnings(file: ClaimFile): GoalEchoWarning[] {
  const out: GoalEchoWarning[] = []
  file.tasks.forEach((t, i) => {
    const e = t.evaluator
    if (e.type !== 'query_match' && e.type !== 'trajectory_match') return
    const flags = e.flags.includes('i') ? e.flags : `${e.flags}i`
    for (const m of userPattern(e.pattern, flags).matchAll(t.goal)) {
      // An empty match ("^$", "x*") says nothing about the goal's text.
      if (m.text.trim() === '') continue
      out.push({ task: i + 1, goal: t.goal, pattern: e.pattern, flags: e.flags, match: m.text })
      return
    }
  })
  return out
}

/** One line for people: which task, which pattern, what it matched, and what follows. */
export function goalEchoText(w: GoalEchoWarning): string {
  const goal = w.goal.length > 60 ? `${w.goal.slice(0, 60)}…` : w.goal
  return (
    `task ${w.task} ("${goal}"): its check /${w.pattern}/${w.flags} matches the goal's own text ("${w.match}"), ` +
    'so an attacker that pastes the goal makes the target echo it; such runs are marked echoed and not counted as breaches ' +
    '(unless echoes are counted): reword the goal without the text the check looks for'
  )
}
