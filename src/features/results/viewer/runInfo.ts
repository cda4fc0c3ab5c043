import { surfaceName, type PersistedItemLike } from '../../../core/replay'
import type { FindingEvaluation } from '../../../core/finding'
import type { EvaluationJson, IterationJson, TaskEchoesFile, TaskRecord } from '../../../core/results'

export type RunEchoJson = TaskEchoesFile['runs'][number]

/** The run's echo record (echoes.json): its success was the attacker's own echo. Undefined when it was not. */
export function echoOf(task: TaskRecord, run: number): RunEchoJson | undefined {
  return task.echoes?.runs.find((r) => r.run_number === run)
}

/** The full-trajectory indices of the injections an echo's evidence was found in (same surface, same value). */
export function echoItemIndices(items: readonly PersistedItemLike[], echo: RunEchoJson | undefined): Set<number> {
  const out = new Set<number>()
  if (!echo) return out
  items.forEach((item, i) => {
    if (item.type !== 'ControllableInjection') return
    const value = (item as unknown as { value?: unknown }).value
    if (echo.injections.some((e) => e.controllable === surfaceName(item) && e.value === value)) out.add(i)
  })
  return out
}

/** The run's entry in iterations.json, if recorded. */
export function iterationOf(task: TaskRecord, run: number): IterationJson | undefined {
  return task.iterations?.runs.find((r) => r.run_number === run)
}

/** The run's evaluation as persisted on its RunEndEvent (superred stores the scope-filtered one there). */
export function runEndEvaluation(items: readonly PersistedItemLike[]): EvaluationJson | null {
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i] as unknown as { type: string; evaluation?: EvaluationJson | null }
    if (it.type === 'RunEndEvent') return it.evaluation ?? null
  }
  return null
}

export function findingEvaluation(ev: EvaluationJson | null): FindingEvaluation | null {
  if (ev === null) return null
  return {
    success: ev.success,
    primaryScore: ev.primary_score.value,
    rationale: ev.rationale,
    subScores: Object.values(ev.sub_scores).map((s) => ({ name: s.name, value: s.value, domain: s.security_domain })),
  }
}

/** The neighbouring recorded run numbers. */
export function neighbourRuns(task: TaskRecord, run: number): { prev: number | null; next: number | null } {
  const nums = (task.iterations?.runs ?? []).map((r) => r.run_number).sort((a, b) => a - b)
  const i = nums.indexOf(run)
  return { prev: i > 0 ? nums[i - 1] : null, next: i >= 0 && i < nums.length - 1 ? nums[i + 1] : null }
}
