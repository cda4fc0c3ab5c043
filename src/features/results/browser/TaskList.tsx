import { useMemo, useRef } from 'react'
import { useVirtualizer } from '@tanstack/react-virtual'
import { Link } from 'wouter'
import { configText, costShort, costWords, taskHeld, type ManifestTaskJson, type UnpricedJson } from '../../../core/results'
import { rateWords } from '../../../core/stats'
import { taskHref, taskSegment } from '../paths'
import { useResultsLocation } from '../useResultsLocation'
import { parseTaskView, statusCounts, viewTasks, type SortKey } from './taskTable'
import { plural } from '../../../lib/plural'

interface Props {
  readonly tasks: readonly ManifestTaskJson[]
  /** Each task's configuration by index (task_configs.json); a column only when the tree has it. */
  readonly configs?: ReadonlyMap<number, Readonly<Record<string, string>>>
  readonly src: string
  readonly experiment: string
  /** The experiment's attacker, named where a task held. */
  readonly attacker: string
  /** Echoed run numbers by task index (echoes.json), and whether they were counted as successes. */
  readonly echoes?: { readonly byTask: ReadonlyMap<number, readonly number[]>; readonly counted: boolean } | null
  /** Unpriced calls by task index (unpriced.json): such a task's cost says "unpriced", never $0. */
  readonly unpriced?: ReadonlyMap<number, UnpricedJson>
}

const ROW = 36

/** The tasks of an experiment: filter by outcome, search goals, sort; only the visible rows are in the DOM. */
export function TaskList({ tasks, configs, src, experiment, attacker, echoes = null, unpriced }: Props) {
  const withConfig = configs !== undefined && configs.size > 0
  const { params, navigate, withParam } = useResultsLocation()
  const view = parseTaskView(params)
  const { query, status, sort, descending } = view
  const rows = useMemo(() => viewTasks(tasks, { query, status, sort, descending }), [tasks, query, status, sort, descending])
  const counts = useMemo(() => statusCounts(tasks), [tasks])
  const scrollRef = useRef<HTMLDivElement>(null)
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtual = useVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW, overscan: 10 })
  const set = (name: string, value: string | null) => navigate(withParam(name, value), { replace: true })

  return (
    <section className={`task-list${withConfig ? ' task-list--config' : ''}`} aria-label="Tasks">
      <div className="task-list__controls">
        <input
          type="search"
          placeholder="Search goals"
          aria-label="Search goals"
          value={view.query}
          onChange={(e) => set('q', e.target.value || null)}
        />
        <select aria-label="Outcome" value={view.status ?? ''} onChange={(e) => set('status', e.target.value || null)}>
          <option value="">All outcomes ({tasks.length})</option>
          {[...counts].map(([status, n]) => (
            <option key={status} value={status}>
              {status} ({n})
            </option>
          ))}
        </select>
        <select
          aria-label="Sort by"
          value={view.sort}
          onChange={(e) => set('sort', (e.target.value as SortKey) === 'index' ? null : e.target.value)}
        >
          <option value="index">Sort by task</option>
          <option value="score">Sort by best score</option>
          <option value="cost">Sort by cost</option>
          <option value="runs">Sort by runs</option>
        </select>
        <button
          type="button"
          className="button button--small"
          aria-label="Sort direction"
          onClick={() => set('desc', view.descending ? null : '1')}
        >
          {view.descending ? '↓ descending' : '↑ ascending'}
        </button>
        <span className="task-list__count" role="status">
          {rows.length.toLocaleString('en-US')} of {plural(tasks.length, 'task')}
        </span>
      </div>
      <div className="task-list__head" aria-hidden="true">
        <span>#</span>
        <span>Goal</span>
        {withConfig && <span>Configuration</span>}
        <span>Outcome</span>
        <span>Best</span>
        <span title="runs; where the task held, successes/runs and the upper bound of the per-run success rate at 95%">Runs</span>
        <span>Cost</span>
        <span>Stop</span>
      </div>
      <div className="task-list__scroll" ref={scrollRef} role="list" aria-label="Task rows">
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {virtual.getVirtualItems().map((v) => {
            const t = rows[v.index]
            return (
              <div
                key={t.index}
                role="listitem"
                className={`task-row task-row--${t.status}`}
                style={{ transform: `translateY(${v.start}px)`, height: ROW }}
              >
                <span>{t.index}</span>
                {t.dir === null ? (
                  <span className="task-row__goal" title="skipped: no folder">
                    {t.goal}
                  </span>
                ) : (
                  <Link className="task-row__goal" href={taskHref(src, experiment, taskSegment(t.dir))}>
                    {t.goal}
                  </Link>
                )}
                {withConfig && (
                  <span className="task-row__config" data-testid="task-config">
                    {configText(configs.get(t.index))}
                  </span>
                )}
                <span className={`status status--${t.status}`}>
                  {t.status}
                  {echoes?.byTask.has(t.index) && (
                    <span
                      className="echo-badge"
                      data-testid="task-echoed"
                      title={`runs ${echoes.byTask.get(t.index)!.join(', ')} succeeded only on the attacker's own injection${echoes.counted ? ' (counted)' : ' (not counted)'}`}
                    >
                      {' '}
                      · {echoes.byTask.get(t.index)!.length} echoed
                    </span>
                  )}
                </span>
                <span>{t.best_score.toFixed(2)}</span>
                <RunsCell task={t} attacker={attacker} />
                <span title={unpriced?.has(t.index) ? costWords(t.cost_usd, unpriced.get(t.index)) : undefined}>
                  {costShort(t.cost_usd, unpriced?.get(t.index))}
                </span>
                <span>{t.stop_reason}</span>
              </div>
            )
          })}
        </div>
      </div>
    </section>
  )
}

/**
 * A task's runs; one that held also says "0/8 (≤ 33%)": none of its runs broke it, and the most its per-run
 * success rate can be at 95% (the full words in the title). A task that broke stopped at its first success, so
 * its runs give no per-run rate to show.
 */
function RunsCell({ task, attacker }: { task: ManifestTaskJson; attacker: string }) {
  if (!taskHeld(task.status, task.n_runs)) return <span>{task.n_runs}</span>
  const w = rateWords(0, task.n_runs, { unit: 'run', attacker })
  return (
    <span title={w.text} data-testid="task-held">
      {w.short}
    </span>
  )
}
