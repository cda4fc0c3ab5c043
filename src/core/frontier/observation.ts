/**
 * What one evaluation of a threat model saw, and the verdicts it gives. An
 * evaluation runs the claim `repeat` times; each run says, per task, whether
 * the task ended in success. A task wins a run when it succeeded; the claim
 * wins a run when any task did. The verdict is the majority of the runs, a
 * tie counting as a win (an attacker who breaks the claim half the time
 * breaks it), with the counts kept so a reader sees the confidence.
 */
import type { Verdict } from './knowledge'
import { wilsonInterval, Z_95, type Interval } from '../stats'

export interface Observation {
  /** Per run, per task (claim order): true when the task ended in success. */
  readonly runs: readonly (readonly boolean[])[]
}

/** The question a search answers: the claim as a whole, or one task by index. */
export type Question = 'claim' | number

export interface Tally {
  readonly wins: number
  readonly runs: number
}

const won = (run: readonly boolean[], q: Question) => (q === 'claim' ? run.some(Boolean) : run[q] === true)

export function tallyOf(o: Observation, q: Question): Tally {
  let wins = 0
  for (const run of o.runs) if (won(run, q)) wins++
  return { wins, runs: o.runs.length }
}

/** Per run, in run order: did the question win it (what a sequential test reads). */
export function outcomesOf(o: Observation, q: Question): boolean[] {
  return o.runs.map((run) => won(run, q))
}

export function verdictOf(t: Tally): Verdict {
  return t.runs > 0 && 2 * t.wins >= t.runs ? 'win' : 'loss'
}

/**
 * The 95% Wilson score interval of the win rate: how sure a majority of
 * `runs` is. With 1 run it spans [0.21, 1] for a win: one run decides nothing
 * about a noisy attacker, and the report says so. The maths is src/core/stats'.
 */
export function wilson(t: Tally, z = Z_95): Interval {
  return wilsonInterval(t.wins, t.runs, z)
}
