import type { ManifestTaskJson } from '../../../core/results'
import { parseTaskView, statusCounts, viewTasks } from './taskTable'

const task = (
  index: number,
  goal: string,
  status: ManifestTaskJson['status'],
  best_score: number,
  cost_usd: number,
  n_runs: number,
): ManifestTaskJson => ({
  index,
  goal,
  goal_hash: String(index),
  dir: `tasks/${index}`,
  status,
  success: status === 'success',
  best_score,
  stop_reason: 'max_runs',
  n_runs,
  cost_usd,
  has_error: status === 'error',
  started_at: null,
  ended_at: null,
})
const tasks = [
  task(1, 'Leak the secret', 'failed', 0.5, 0.2, 3),
  task(2, 'Send money', 'success', 1, 0.1, 1),
  task(3, 'leak the calendar', 'success', 0.9, 0.3, 2),
  task(4, 'Delete files', 'error', 0, 0, 0),
]

describe('viewTasks', () => {
  it('filters by outcome and by goal text, case-insensitively', () => {
    expect(viewTasks(tasks, { query: 'LEAK', status: null, sort: 'index', descending: false }).map((t) => t.index)).toEqual([1, 3])
    expect(viewTasks(tasks, { query: 'leak', status: 'success', sort: 'index', descending: false }).map((t) => t.index)).toEqual([3])
  })
  it('sorts by score, cost or runs, either way, ties by index', () => {
    const by = (sort: 'score' | 'cost' | 'runs', descending: boolean) =>
      viewTasks(tasks, { query: '', status: null, sort, descending }).map((t) => t.index)
    expect(by('score', true)).toEqual([2, 3, 1, 4])
    expect(by('cost', false)).toEqual([4, 2, 1, 3])
    expect(by('runs', true)).toEqual([1, 3, 2, 4])
  })
  it('does not reorder its input', () => {
    viewTasks(tasks, { query: '', status: null, sort: 'score', descending: true })
    expect(tasks.map((t) => t.index)).toEqual([1, 2, 3, 4])
  })
})

it('counts outcomes and reads the view from the URL with safe defaults', () => {
  expect(Object.fromEntries(statusCounts(tasks))).toEqual({ failed: 1, success: 2, error: 1 })
  expect(parseTaskView(new URLSearchParams('q=x&status=error&sort=bogus&desc=1'))).toEqual({
    query: 'x',
    status: 'error',
    sort: 'index',
    descending: true,
  })
})
