import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { experimentsQuery, tasksQuery } from '../../queries/results'
import { setupActions, useSetup } from '../setupStore'

/** Picks a recorded run from this browser's results: experiment, then task, then run (a successful one first). */
export function ReplayPicker() {
  const replay = useSetup((s) => s.attacker.replay)
  const experiments = useQuery(experimentsQuery())
  const [experiment, setExperiment] = useState(replay ? replay.taskDir.split('/')[0] : '')
  const tasks = useQuery({ ...tasksQuery(experiment), enabled: experiment !== '' })
  if (experiments.error) return <p className="rc-error">Could not read this browser’s results: {experiments.error.message}</p>
  if (experiments.data?.length === 0)
    return <p className="rc-muted">No runs in this browser yet: run an attack first, then replay one of its runs.</p>
  const choose = (taskDir: string, run: number) => setupActions().setAttacker({ replay: { taskDir, run } })
  return (
    <div>
      <div className="rc-field">
        <label className="rc-label" htmlFor="rc-replay-exp">
          Experiment
        </label>
        <select id="rc-replay-exp" className="rc-input" value={experiment} onChange={(e) => setExperiment(e.target.value)}>
          <option value="">pick…</option>
          {(experiments.data ?? []).map((r) => (
            <option key={r.dir} value={r.dir}>
              {r.dir}
            </option>
          ))}
        </select>
      </div>
      {experiment !== '' && tasks.data ? (
        <div className="rc-field">
          <label className="rc-label" htmlFor="rc-replay-run">
            Run
          </label>
          <select
            id="rc-replay-run"
            className="rc-input"
            value={replay && replay.taskDir.startsWith(`${experiment}/`) ? `${replay.taskDir}#${replay.run}` : ''}
            onChange={(e) => {
              const [taskDir, run] = e.target.value.split('#')
              if (taskDir) choose(taskDir, Number(run))
            }}
          >
            <option value="">pick…</option>
            {tasks.data.flatMap((t) =>
              (t.iterations?.runs ?? []).map((r) => (
                <option key={`${t.dir}#${r.run_number}`} value={`${t.dir}#${r.run_number}`}>
                  task {t.task.index} · run {r.run_number} · {r.success ? 'succeeded' : `score ${r.primary_score}`} ·{' '}
                  {t.task.goal.slice(0, 50)}
                </option>
              )),
            )}
          </select>
          <span className="rc-hint">Its injections are sent again, surface by surface, to check whether the finding still reproduces.</span>
        </div>
      ) : null}
      {tasks.error ? <p className="rc-error">{tasks.error.message}</p> : null}
    </div>
  )
}
