/** `redscope run`'s output: one line per task as it ends, then a summary. Secrets never pass through here. */
import { type ProgressReporter, type TaskResult, type ThreatModelResult } from '../core/engine'
import { asrText, rateWords } from '../core/stats'
import { addUnpriced, costWords, runEndsSummary, unpricedJsonOf, usageCostWords } from '../core/results'
import type { ClaimFile } from '../claims'

const oneLine = (s: string, max = 70) => {
  const flat = s.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

/**
 * A model without a price: its cost is "unpriced" (with its calls and tokens), never a $0.0000 that reads as free.
 * The usage says which calls had no price; a task with no call yet of an unpriced model says so by the model.
 */
const costOf = (usage: TaskResult['llmUsage'], unpricedModel: string | null) =>
  unpricedModel !== null && usage.calls === 0 ? 'unpriced' : usageCostWords(usage)

export function taskLine(r: TaskResult, total: number, claim: ClaimFile, unpricedModel: string | null = null): string {
  const config = Object.entries(claim.tasks[r.index - 1]?.config ?? {})
    .filter(([k]) => k !== 'user_task' && k !== 'user_message')
    .map(([k, v]) => `${k}=${v}`)
    .join(' ')
  const runs = r.nRuns ?? r.runs.length
  const echoed = r.runs.filter((run) => run.echo).length
  const parts = [
    `task ${r.index}/${total}`,
    r.stopReason.padEnd(16),
    `runs=${runs}`,
    // Runs whose success was the attacker's own echo: judged failures unless counted (--count-echoes).
    echoed ? `echoed=${echoed}${r.runs.some((run) => run.echo?.counted) ? ' (counted)' : ''}` : '',
    `best=${r.bestScore.value.toFixed(2)}`,
    `cost=${costOf(r.llmUsage, unpricedModel)}`,
    // Why its runs ended (turn limit, the attacker's decline, the target, the time cap), when any was recorded.
    runEndsSummary(r.runs.map((run) => run.ending?.cause)) ? `ended: ${runEndsSummary(r.runs.map((run) => run.ending?.cause))}` : '',
    config ? `[${config}]` : '',
    oneLine(r.task.goal.description, 60),
  ]
  const line = parts.filter(Boolean).join('  ')
  return r.error ? `${line}\n    error: ${oneLine(r.error.split('\n')[0], 300)}` : line
}

export function lineReporter(
  write: (s: string) => void,
  total: number,
  claim: ClaimFile,
  unpricedModel: string | null = null,
): ProgressReporter {
  return {
    taskComplete: (_info, result) => write(`${taskLine(result, total, claim, unpricedModel)}\n`),
    taskSkipped: (_info, index, goal, reason) => write(`task ${index}/${total}  skipped  ${oneLine(goal, 60)} (${oneLine(reason, 120)})\n`),
  }
}

/** The runs that echoed the attacker's own injection, in words; '' when none did. */
export function echoLine(result: ThreatModelResult, countEchoes: boolean): string {
  const tasks = result.taskResults.filter((r) => r.runs.some((run) => run.echo))
  if (tasks.length === 0) return ''
  const runs = tasks.reduce((n, r) => n + r.runs.filter((run) => run.echo).length, 0)
  return (
    `echoes: ${runs} run(s) in ${tasks.length} task(s) succeeded only on text the attacker injected itself; ` +
    (countEchoes ? 'counted as breaches (--count-echoes)' : 'not counted as breaches (--count-echoes counts them)')
  )
}

/**
 * The run's outcome: the ASR over completed tasks with its n and 95% interval, or, when nothing broke, "not
 * broken in N tasks by <attacker>" with the interval's upper bound (src/core/stats: the words every view uses).
 */
export function summaryLines(
  result: ThreatModelResult,
  attacker: string | null = null,
  countEchoes = false,
  unpricedModel: string | null = null,
): string {
  const completed = result.taskResults.filter((r) => ['success', 'done', 'max_runs', 'budget_exhausted'].includes(r.stopReason))
  const successes = completed.filter((r) => r.success).length
  const asr = rateWords(successes, completed.length, { unit: 'task', attacker })
  const reasons = new Map<string, number>()
  for (const r of result.taskResults) reasons.set(r.stopReason, (reasons.get(r.stopReason) ?? 0) + 1)
  const cost = result.taskResults.reduce((sum, r) => sum + r.llmUsage.cost, 0)
  const calls = result.taskResults.reduce((sum, r) => sum + r.llmUsage.calls, 0)
  const unpriced = result.taskResults.reduce(
    (sum, r) => addUnpriced(sum, unpricedJsonOf(r.llmUsage)),
    null as ReturnType<typeof addUnpriced>,
  )
  const ends = runEndsSummary(result.taskResults.flatMap((r) => r.runs.map((run) => run.ending?.cause)))
  return (
    [
      `${asrText(asr)}${result.skippedTasks.length ? `; ${result.skippedTasks.length} skipped` : ''}`,
      `stop reasons: ${[...reasons].map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`,
      echoLine(result, countEchoes),
      ends ? `runs ended: ${ends}` : '',
      `LLM cost: ${unpricedModel !== null && calls === 0 ? 'unpriced' : costWords(cost, unpriced, { calls })} over ${calls} call(s)` +
        (unpricedModel === null ? '' : ` (no price for ${unpricedModel}: give --price-in and --price-out)`),
      result.cancelled ? 'cancelled before every task finished' : '',
      result.resultsDir ? `results: ${result.resultsDir}` : '',
    ]
      .filter(Boolean)
      .join('\n') + '\n'
  )
}
