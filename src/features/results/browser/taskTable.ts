import type { ManifestTaskJson } from '../../../core/results'

/** The task list's view options; they live in the URL so that a filtered list can be shared. */
export type SortKey = 'index' | 'score' | 'cost' | 'runs'
export interface TaskView {
  readonly query: string
  readonly status: string | null
  readonly sort: SortKey
  readonly descending: boolean
}

export const DEFAULT_TASK_VIEW: TaskView = { query: '', status: null, sort: 'index', descending: false }

const SORT_VALUE: Record<SortKey, (t: ManifestTaskJson) => number> = {
  index: (t) => t.index,
  score: (t) => t.best_score,
  cost: (t) => t.cost_usd,
  runs: (t) => t.n_runs,
}

/** Tasks filtered by outcome and goal text, then sorted (ties by index, so the order is stable). */
export function viewTasks(tasks: readonly ManifestTaskJson[], view: TaskView): ManifestTaskJson[] {
  const q = view.query.trim().toLowerCase()
  const kept = tasks.filter((t) => (view.status === null || t.status === view.status) && (q === '' || t.goal.toLowerCase().includes(q)))
  const value = SORT_VALUE[view.sort]
  const sign = view.descending ? -1 : 1
  return kept.sort((a, b) => sign * (value(a) - value(b)) || a.index - b.index)
}

/** How many tasks have each outcome, for the filter's labels. */
export function statusCounts(tasks: readonly ManifestTaskJson[]): Map<string, number> {
  const out = new Map<string, number>()
  for (const t of tasks) out.set(t.status, (out.get(t.status) ?? 0) + 1)
  return out
}

export function parseTaskView(params: URLSearchParams): TaskView {
  const sort = params.get('sort')
  return {
    query: params.get('q') ?? '',
    status: params.get('status') || null,
    sort: sort === 'score' || sort === 'cost' || sort === 'runs' ? sort : 'index',
    descending: params.get('desc') === '1',
  }
}
